import type { RegistersConfig } from '../registers/register-config';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { createTestDataSource, TestBackend } from '../../test/support/database';
import { fixtureText, openDataFile, realEnheter, realVirksomhedLines } from '../../test/support/dataset-fixtures';
import type { AppConfig } from '../platform/config/app-config';
import { DatasetService, matchSql, numberWalkSql, walkSql } from './dataset.service';
import { importDataset } from './import/dataset-importer';

const BACKENDS: TestBackend[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
jest.setTimeout(60_000);

const PRODUCED = new Date('2025-01-10T06:30:00Z');

describe.each(BACKENDS)('DatasetService on %s', (backend) => {
  let dataSource: DataSource;
  let config: AppConfig;
  let registers: RegistersConfig;
  let close: () => Promise<void>;
  let service: DatasetService;
  let dir: string;

  beforeAll(async () => {
    ({ dataSource, config, registers, close } = await createTestDataSource(backend));
    service = new DatasetService(dataSource);
    dir = mkdtempSync(join(tmpdir(), 'rl-dataset-'));
    const load = async (country: string, name: string, data: string, format?: string) => {
      const file = join(dir, name);
      writeFileSync(file, data);
      await importDataset({ dataSource, config, registers, country, file, format, producedAt: PRODUCED });
    };
    // Derived from the documented Enhet shape of SESAM STASJON: the register's own unit, to
    // test accent folding on a name that has the letters (no recorded unit has them).
    const brreg = { ...realEnheter()[0], organisasjonsnummer: '974760673', navn: 'BRØNNØYSUNDREGISTRENE' };
    await load('NO', 'enheter.json', JSON.stringify([...realEnheter(), brreg]));
    await load('GB', 'gb.csv', fixtureText('registers/gb/ch-bulk-basiccompanydata-sample.csv'));
    await load('DK', 'virksomhed.jsonl', realVirksomhedLines().join('\n'));
    await load(
      'AU',
      'abn.xml',
      fixtureText('datasets/au/abn-bulk-extract-constructed-from-docs-sample.xml'),
      'abn-xml',
    );
    const ca = [
      'registers/ca/corpcan-opendata-corporation-1007-abbotsford-chamber-bota.xml',
      'registers/ca/corpcan-opendata-corporation-16292721-numbered-cbca-2024.xml',
    ];
    await load('CA', 'OPEN_DATA_1.xml', openDataFile(ca.map(fixtureText)));
  });
  afterAll(async () => {
    await close?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('finds a company by its number, with honest provenance', async () => {
    const found = await service.findByNumber('NO', '976030788');
    expect(found).toEqual({
      name: 'SESAM AS',
      registrationNumber: '976030788',
      country: 'NO',
      status: 'Registrert',
      statusCategory: 'active',
      legalForm: 'Aksjeselskap',
      address: 'Elgeseter gate 1, 7030 TRONDHEIM',
      city: 'TRONDHEIM',
      incorporationDate: '1995-12-12',
      source: {
        register: 'Enhetsregisteret (Brønnøysundregistrene)',
        url: 'https://virksomhet.brreg.no/nb/oppslag/enheter/976030788',
        official: false,
        kind: 'dataset:brreg-enheter',
        retrievedAt: '2025-01-10T06:30:00.000Z',
      },
      extra: expect.objectContaining({ organisasjonsform: 'AS' }),
    });
    expect(await service.findByNumber('no', ' 976030788 ')).toMatchObject({ name: 'SESAM AS' });
    expect(await service.findByNumber('NO', '999999999')).toBeNull();
    expect(await service.findByNumber('GB', '976030788')).toBeNull();
  });

  it('finds a company by one of its other numbers (ACN of an ABN, BN9 of a corporation)', async () => {
    expect(await service.findByNumber('AU', '154482283')).toMatchObject({
      registrationNumber: '26154482283',
      name: 'Oneflare Pty Ltd',
      extra: { acn: '154482283', otherNumbers: ['154482283'] },
      source: { kind: 'dataset:abr-abn-bulk-extract', official: false },
    });
    expect(await service.findByNumber('CA', '754441624')).toMatchObject({
      registrationNumber: '16292721',
      name: '16292721 CANADA INC.',
    });
  });

  it('searches names accent- and case-insensitively, best match first', async () => {
    for (const q of ['Bronnoysund', 'BRØNNØYSUND', 'brønnøysundregistrene', 'Brønnøysund-registrene']) {
      const results = await service.searchByName('NO', q, 5);
      expect(results[0]).toMatchObject({ name: 'BRØNNØYSUNDREGISTRENE', registrationNumber: '974760673' });
    }
    expect((await service.searchByName('NO', 'sesam', 10)).map((r) => r.name)).toEqual([
      'SESAM AS',
      'SESAM STASJON',
      'SESAM FAMILIEBARNEHAGE',
    ]);
    expect((await service.searchByName('DK', 'fondsmaeglerselskab', 10)).map((r) => r.registrationNumber)).toEqual([
      '34689733',
    ]);
    expect((await service.searchByName('DK', 'diplomingeniorstuderende', 10)).map((r) => r.registrationNumber)).toEqual(
      ['11617034'],
    );
    expect((await service.searchByName('NO', 'sesam', 2)).length).toBe(2);
  });

  it('keeps countries apart', async () => {
    expect(await service.searchByName('GB', 'sesam', 10)).toEqual([]);
    expect((await service.searchByName('GB', 'ltd', 10)).map((r) => r.registrationNumber).sort()).toEqual([
      '08209948',
      '11399177',
    ]);
  });

  it('treats %, _ and quotes as text, and survives emoji, RTL text, control characters and 10 kB', async () => {
    for (const q of ['%', '_', "'", '%%', '\\', '😀', '\u0000', '\u202e']) {
      expect(await service.searchByName('NO', q, 10)).toEqual([]);
    }
    expect((await service.searchByName('NO', 'SESAM%', 10)).map((r) => r.name)).toContain('SESAM AS');
    // No LIKE anywhere: '_' is not "any character" and '%' not "anything" (the alone queries above found nothing).
    expect((await service.searchByName('NO', "SESAM'; DROP TABLE company; --", 10)).length).toBeGreaterThanOrEqual(0);
    expect(await service.findByNumber('NO', "976030788'; DROP TABLE company; --")).toBeNull();
    expect(await service.searchByName('NO', 'شركة السلام', 10)).toEqual([]);
    expect((await service.searchByName('NO', 'sesam 😀 as', 10))[0]).toMatchObject({ name: 'SESAM AS' });
    expect(await service.searchByName('NO', 'x'.repeat(10_240), 10)).toEqual([]);
    expect(await service.searchByName('NO', 'sesam '.repeat(2000), 10)).toEqual(expect.any(Array));
    expect((await service.findByNumber('NO', '976030788'))?.name).toBe('SESAM AS');
  });

  it('runs a search in its own transaction with sequential scans off, and leaves neither behind, even when it fails', async () => {
    // PGlite is one session for the whole service: a search that left its transaction open
    // (or its settings) would run every later statement of the service inside it.
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    try {
      const seen: string[] = [];
      const query = runner.query.bind(runner);
      jest.spyOn(dataSource, 'createQueryRunner').mockReturnValue(runner);
      jest.spyOn(runner, 'release').mockResolvedValue(undefined);
      let inside = false;
      const spied = jest.spyOn(runner, 'query').mockImplementation(async (sql: string, params?: unknown[]) => {
        if (/^\s*(BEGIN|START TRANSACTION)/i.test(sql)) inside = true;
        else if (/^\s*(COMMIT|ROLLBACK)/i.test(sql)) inside = false;
        else if (inside) seen.push(String((await query(`SELECT current_setting('enable_seqscan') AS s`))[0].s));
        return query(sql, params);
      });
      expect((await service.searchByName('NO', 'sesam', 5)).map((c) => c.name)).toContain('SESAM AS');
      expect(seen.length).toBeGreaterThan(0);
      expect(new Set(seen)).toEqual(new Set(['off']));
      spied.mockImplementation(async (sql: string, params?: unknown[]) => {
        if (/FROM company/.test(sql)) throw new Error('the disk went away');
        return query(sql, params);
      });
      await expect(service.searchByName('NO', 'sesam', 5)).rejects.toThrow('the disk went away');
      jest.restoreAllMocks();
      const after = await runner.query(
        `SELECT current_setting('enable_seqscan') AS s, now() = statement_timestamp() AS outside`,
      );
      expect(after).toEqual([{ s: 'on', outside: true }]);
    } finally {
      jest.restoreAllMocks();
      await runner.release();
    }
  });

  it('refuses a country outside the register table instead of building SQL with it', async () => {
    await expect(service.searchByName("NO' OR '1'='1", 'sesam', 10)).rejects.toThrow(/no country/);
    await expect(service.findByNumber('XX', '1')).rejects.toThrow(/no country/);
  });

  it('describes the newest import of a country, or null when it has none', async () => {
    expect(await service.datasetInfo('NO')).toEqual({
      datasetName: 'brreg-enheter',
      producedAt: PRODUCED,
      rows: 10,
      complete: true,
      interrupted: null,
    });
    expect(await service.datasetInfo('FR')).toBeNull();
    // Rows loaded without the importer (a seed): described from the table itself.
    await dataSource.query(
      `INSERT INTO company (country, registration_number, name, name_normalized, status_category, source_url, source_kind, dataset_name, produced_at)
       VALUES ('FR', '552032534', 'DANONE', 'danone', 'active', 'https://annuaire-entreprises.data.gouv.fr/entreprise/552032534', 'dataset:seed', 'seed', '2024-01-02T00:00:00Z')`,
    );
    expect(await service.datasetInfo('FR')).toEqual({
      datasetName: 'seed',
      producedAt: new Date('2024-01-02T00:00:00Z'),
      rows: 1,
      complete: false,
      interrupted: null,
    });
  });

  it('reads a typo, a word still being typed and words typed apart or together', async () => {
    expect((await service.searchByName('NO', 'sesma', 10)).map((r) => r.name)).toEqual([
      'SESAM AS',
      'SESAM STASJON',
      'SESAM FAMILIEBARNEHAGE',
    ]);
    expect((await service.searchByName('NO', 'sesam stas', 10)).map((r) => r.name)).toEqual(['SESAM STASJON']);
    expect((await service.searchByName('NO', 'sesamstasjon', 10)).map((r) => r.name)).toEqual(['SESAM STASJON']);
    expect((await service.searchByName('NO', 'brønnøysund registrene', 10)).map((r) => r.name)).toEqual([
      'BRØNNØYSUNDREGISTRENE',
    ]);
    // Exact words first: the typo tier only fills what the exact one left.
    expect((await service.searchByName('NO', 'sesam', 1)).map((r) => r.name)).toEqual(['SESAM AS']);
  });

  it('reads the GIN index for the whole query or a narrower part of it, and answers in the same order either way', async () => {
    const numbers = async (sql: string, params: unknown[]) =>
      ((await dataSource.query(sql, params)) as Array<{ registration_number: string }>).map(
        (r) => r.registration_number,
      );
    // Names holding "sesam", those that begin with "sesam stasjon" first, then by rank: the order written out in SQL.
    const reference = await numbers(
      `SELECT registration_number FROM company WHERE country = 'NO' AND array_to_tsvector(string_to_array(name_normalized, ' ')) @@ 'sesam'::tsquery
       ORDER BY starts_with(name_normalized, 'sesam stasjon') DESC, name_rank, registration_number LIMIT 2`,
      [],
    );
    expect(reference).toHaveLength(2);
    // The driver is the query itself, then a narrower tsquery that means the same.
    expect(await numbers(matchSql('NO'), ["'sesam'", "'sesam'", 2, 'sesam stasjon'])).toEqual(reference);
    expect(await numbers(matchSql('NO'), ["'sesam'", "'sesam' | 'sesam'", 2, 'sesam stasjon'])).toEqual(reference);
    // A narrower driver is followed by the whole query.
    expect(await numbers(matchSql('NO'), ["'sesam'", "'sesam' & 'stasjon'", 10, ''])).toEqual(
      await numbers(
        `SELECT registration_number FROM company WHERE country = 'NO' AND name_normalized = 'sesam stasjon'`,
        [],
      ),
    );
  });

  if (backend === 'postgres') {
    it("plans the name search on the country's partial word and rank indexes", async () => {
      // Enough rows for the planner to prefer an index: 30,000 generated NO names and 30,000 GB ones.
      await dataSource.query(`
        INSERT INTO company (country, registration_number, name, name_normalized, status_category, source_url, source_kind, dataset_name, produced_at)
        SELECT cc, 'X' || i, 'Generated ' || md5(i::text), 'generated ' || md5(i::text), 'unknown', 'https://example.invalid', 'dataset:explain', 'explain', now()
        FROM generate_series(1, 30000) AS i, (VALUES ('NO'), ('GB')) AS c(cc)`);
      await dataSource.query('VACUUM ANALYZE company');
      try {
        // The GIN read runs inside company_name_matches: its index scans are counted.
        const scans = async () =>
          Number(
            (
              (await dataSource.query(
                `SELECT idx_scan FROM pg_stat_user_indexes WHERE indexrelname = 'company_words_no'`,
              )) as Array<{ idx_scan: string }>
            )[0].idx_scan,
          );
        const before = await scans();
        expect(
          await dataSource.query(matchSql('NO'), ["'sesam'", "'sesam' & 'stasjon'", 10, 'sesam stasjon']),
        ).toHaveLength(1);
        for (let i = 0; i < 50 && (await scans()) === before; i++) await new Promise((r) => setTimeout(r, 100)); // statistics are flushed asynchronously
        expect(await scans()).toBeGreaterThan(before);
        for (const [sql, params, index] of [
          [walkSql('NO'), ["'generated'", 1024, 10, 1000], 'company_rank_no'],
          [numberWalkSql('NO'), ["'generated'", 10, 20000], 'company_no_number'],
        ] as const) {
          const plan = (await dataSource.query(`EXPLAIN ${sql}`, [...params])) as Array<{ 'QUERY PLAN': string }>;
          const text = plan.map((p) => p['QUERY PLAN']).join('\n');
          expect(text).toContain(index);
          expect(text).not.toMatch(/Seq Scan/);
        }
      } finally {
        await dataSource.query(`DELETE FROM company WHERE dataset_name = 'explain'`);
      }
    });
  }
});
