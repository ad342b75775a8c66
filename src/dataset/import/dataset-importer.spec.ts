import type { RegistersConfig } from '../../registers/register-config';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { DataSource, EntityManager } from 'typeorm';
import { createTestDataSource, TestBackend } from '../../../test/support/database';
import { makeZip } from '../../../test/support/zip';
import type { AppConfig } from '../../platform/config/app-config';
import { fixtureText, openDataFile, realEnheter } from '../../../test/support/dataset-fixtures';
import { dateFromFileName, importDataset, ImportOptions, resolveFormat } from './dataset-importer';
import { formatImportSummary } from './import-summary';
import { DatasetImportStore } from './dataset-import-store';
import { BUNDLED_DATASET, seedBundledSample } from '../seed/bundled-sample';
import { refreshWordCounts } from '../word-counts';
import { normalizeName } from '../normalize-name';
import { MAX_FOLDED_NAME_BYTES } from './complete-row';
import { COUNTRY_CODES, REGISTERS } from '../../registers/registers';

const BACKENDS: TestBackend[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
// Starting PGlite (WASM) takes seconds on a busy 2-core machine.
jest.setTimeout(60_000);
const GB_SAMPLE = 'registers/gb/ch-bulk-basiccompanydata-sample.csv';

describe.each(BACKENDS)('dataset import on %s', (backend) => {
  let dataSource: DataSource;
  let config: AppConfig;
  let registers: RegistersConfig;
  let close: () => Promise<void>;
  let dir: string;

  beforeAll(async () => {
    ({ dataSource, config, registers, close } = await createTestDataSource(backend));
    dir = mkdtempSync(join(tmpdir(), 'rl-import-'));
  });
  afterAll(async () => {
    await close?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await dataSource.query('DELETE FROM company');
    await dataSource.query('DELETE FROM dataset_import');
  });

  const run = (o: Partial<ImportOptions> & Pick<ImportOptions, 'country' | 'file'>) =>
    importDataset({ dataSource, config, registers, producedAt: new Date('2024-05-01T00:00:00Z'), ...o });
  const file = (name: string, data: string | Buffer) => {
    const path = join(dir, name);
    writeFileSync(path, data);
    return path;
  };
  const wordCounts = async (country: string) => ({
    words: (await dataSource.query(`SELECT word, companies FROM company_word WHERE country = $1 ORDER BY word`, [
      country,
    ])) as Array<{ word: string; companies: number }>,
    companies: Number(
      (
        (await dataSource.query(`SELECT companies FROM dataset_country WHERE country = $1`, [country])) as Array<{
          companies: string;
        }>
      )[0].companies,
    ),
  });
  const companies = async (country: string) =>
    (await dataSource.query(
      `SELECT registration_number, name, name_normalized, status, status_category, legal_form, city, incorporation_date, source_kind, dataset_name, produced_at, other_numbers
       FROM company WHERE country = $1 ORDER BY registration_number`,
      [country],
    )) as Array<Record<string, unknown>>;

  it('counts words from the table with a large work_mem on a Postgres server only (PGlite keeps whatever its heap grows to)', async () => {
    const statements: string[] = [];
    const transaction = dataSource.transaction.bind(dataSource) as (
      run: (m: EntityManager) => Promise<unknown>,
    ) => Promise<unknown>;
    const spy = jest.spyOn(dataSource, 'transaction').mockImplementation(((
      run: (m: EntityManager) => Promise<unknown>,
    ) =>
      transaction(async (m) => {
        const query = m.query.bind(m);
        m.query = ((sql: string, parameters?: unknown[]) => {
          statements.push(sql);
          return query(sql, parameters);
        }) as typeof m.query;
        return run(m);
      })) as never);
    try {
      await refreshWordCounts(dataSource, 'GB');
    } finally {
      spy.mockRestore();
    }
    expect(statements.some((sql) => sql.includes('string_to_array'))).toBe(true);
    expect(statements.some((sql) => /work_mem/.test(sql))).toBe(backend === 'postgres');
  });

  it('imports the real GB sample, and a re-import changes nothing and duplicates nothing', async () => {
    const path = file('BasicCompanyData-sample.csv', fixtureText(GB_SAMPLE));
    const first = await run({ country: 'GB', file: path });
    expect(first).toMatchObject({
      country: 'GB',
      format: 'basiccompanydata-csv',
      datasetName: 'companies-house-basiccompanydata',
      recordsRead: 3,
      rows: 3,
      inserted: 3,
      updated: 0,
      unchanged: 0,
      datasetRows: 3,
    });
    expect(first.writer).toBe(backend === 'postgres' ? 'postgres-copy-bulk' : 'pglite-copy');
    const rows = await companies('GB');
    expect(
      rows.map((r) => [
        r.registration_number,
        r.name,
        r.name_normalized,
        r.status,
        r.status_category,
        r.incorporation_date,
      ]),
    ).toEqual([
      ['08209948', '! LTD', 'ltd', 'Active', 'active', '2012-09-11'],
      ['11399177', '!? LTD', 'ltd', 'Active', 'active', '2018-06-05'],
      ['12778855', '! LIMITED', 'limited', 'Active', 'active', '2020-07-29'],
    ]);
    expect(rows[0]).toMatchObject({
      source_kind: 'dataset:companies-house-basiccompanydata',
      dataset_name: 'companies-house-basiccompanydata',
      legal_form: 'Private limited company',
      city: 'LEEDS',
    });
    expect(new Date(rows[0].produced_at as string).toISOString()).toBe('2024-05-01T00:00:00.000Z');

    const again = await run({ country: 'GB', file: path });
    expect(again).toMatchObject({ rows: 3, inserted: 0, updated: 0, unchanged: 3, datasetRows: 3 });
    expect(await companies('GB')).toEqual(rows);
  });

  it('updates a changed row on re-import, and the last occurrence of a repeated number wins', async () => {
    const original = fixtureText(GB_SAMPLE);
    await run({ country: 'GB', file: file('v1.csv', original) });
    const [header, a, b, c] = original.trim().split('\n');
    const changed = b.replace('"Active"', '"Liquidation"').replace('"LEEDS"', '"BRADFORD"');
    const repeatedFirst = c.replace('"!? LTD"', '"OLDER NAME LTD"');
    const path = file('v2.csv', [header, a, changed, repeatedFirst, c].join('\n'));
    const summary = await run({
      country: 'GB',
      file: path,
      producedAt: new Date('2024-05-01T00:00:00Z'),
      batchSize: 2,
    });
    // Batches of 2: [a, changed b] → b updated; [older c, c] → collapsed to c, unchanged.
    expect(summary).toMatchObject({ recordsRead: 4, rows: 4, inserted: 0, updated: 1, unchanged: 2, superseded: 1 });
    const rows = await companies('GB');
    expect(rows).toHaveLength(3);
    expect(rows.find((r) => r.registration_number === '08209948')).toMatchObject({
      status: 'Liquidation',
      status_category: 'in_liquidation',
      city: 'BRADFORD',
    });
    expect(rows.find((r) => r.registration_number === '11399177')).toMatchObject({ name: '!? LTD' });

    // A newer file of the same register (new production date) updates every row it holds.
    const newer = await run({
      country: 'GB',
      file: file('v3.csv', original),
      producedAt: new Date('2024-06-01T00:00:00Z'),
    });
    expect(newer).toMatchObject({ inserted: 0, updated: 3, unchanged: 0 });
    expect((await companies('GB')).map((r) => r.status)).toEqual(['Active', 'Active', 'Active']);
  });

  it('deduplicates a repeated key inside one batch before ON CONFLICT sees it', async () => {
    const [header, a, b] = fixtureText(GB_SAMPLE).trim().split('\n');
    const renamed = a.replace('"! LIMITED"', '"RENAMED LIMITED"');
    const summary = await run({ country: 'GB', file: file('dupes.csv', [header, a, b, renamed].join('\n')) });
    expect(summary).toMatchObject({ rows: 3, inserted: 2, updated: 0, unchanged: 0, superseded: 1 });
    expect((await companies('GB')).map((r) => r.name)).toEqual(['! LTD', 'RENAMED LIMITED']);
  });

  it('keeps backslashes, quotes and a literal \\N of a value through COPY (whitespace folded as the reader folds it)', async () => {
    const [header, a] = fixtureText(GB_SAMPLE).trim().split('\n');
    const odd = 'A\\B \tC ""D"" \\N ÆØÅ LIMITED';
    const row = a
      .replace('"! LIMITED"', `"${odd}"`)
      .replace('"UNIT 3 NEWTON BUSINESS CENTRE"', '"UNIT 3\nNEWTON \\ CENTRE"');
    const summary = await run({ country: 'GB', file: file('odd.csv', [header, row].join('\n')) });
    expect(summary).toMatchObject({ rows: 1, inserted: 1, rejected: { total: 0 } });
    const [stored] = (await dataSource.query(`SELECT name, address FROM company WHERE country = 'GB'`)) as Array<{
      name: string;
      address: string;
    }>;
    expect(stored.name).toBe('A\\B C "D" \\N ÆØÅ LIMITED');
    expect(stored.address).toContain('NEWTON \\ CENTRE');
  });

  it('imports a name longer than an index entry may be: stored whole, folded and cut at a word', async () => {
    const [header, a, b] = fixtureText(GB_SAMPLE).trim().split('\n');
    // 'ﷺ' unfolds (NFKD) to four Arabic words: a folded name can be longer than the name itself.
    const long = `${Array.from({ length: 400 }, (_, i) => `ÆBLE${i} ﷺ`).join(' ')} LIMITED`;
    const path = file('long.csv', [header, a.replace('"! LIMITED"', `"${long}"`), b].join('\n'));
    // The first import of an empty dataset (on Postgres, a table of its own, indexed after the
    // load), then a newer one over it (rows updated in place).
    for (const [producedAt, expected] of [
      ['2024-05-01T00:00:00Z', { inserted: 2 }],
      ['2024-06-01T00:00:00Z', { updated: 2 }],
    ] as const) {
      const summary = await run({ country: 'GB', file: path, producedAt: new Date(producedAt) });
      expect(summary).toMatchObject({ rows: 2, rejected: { total: 0 }, ...expected });
    }
    const [stored] = (await dataSource.query(
      `SELECT name, name_normalized FROM company WHERE country = 'GB' AND name LIKE 'ÆBLE0 %'`,
    )) as Array<{ name: string; name_normalized: string }>;
    expect(stored.name).toBe(long);
    const folded: string = stored.name_normalized;
    expect(Buffer.byteLength(folded)).toBeLessThanOrEqual(MAX_FOLDED_NAME_BYTES);
    expect(Buffer.byteLength(folded)).toBeGreaterThan(MAX_FOLDED_NAME_BYTES - 100);
    expect(folded.startsWith('aeble0 صلى الله عليه وسلم aeble1 ')).toBe(true);
    expect(normalizeName(long).startsWith(`${folded} `)).toBe(true);
  });

  it('reads gzip and zip input: the NO array gzipped, the GB CSV and FR CSV zipped', async () => {
    const no = await run({
      country: 'NO',
      file: file('enheter_alle.json.gz', gzipSync(JSON.stringify(realEnheter()))),
    });
    expect(no).toMatchObject({ format: 'enheter-json', rows: 9, inserted: 9, rejected: { total: 0 } });
    expect((await companies('NO')).map((r) => r.registration_number)).toContain('976030788');

    const gbZip = makeZip([{ name: 'BasicCompanyDataAsOneFile-2024-05-01.csv', data: fixtureText(GB_SAMPLE) }]);
    expect(await run({ country: 'GB', file: file('BasicCompanyDataAsOneFile-2024-05-01.zip', gbZip) })).toMatchObject({
      rows: 3,
      inserted: 3,
    });

    const frZip = makeZip([
      {
        name: 'StockUniteLegale_utf8.csv',
        data: fixtureText('datasets/fr/stockunitelegale-constructed-from-docs-sample.csv'),
      },
    ]);
    const fr = await run({ country: 'fr', file: file('StockUniteLegale_utf8.zip', frZip) });
    expect(fr).toMatchObject({ country: 'FR', rows: 4, inserted: 4 });
    expect((await companies('FR')).find((r) => r.registration_number === '880878145')).toMatchObject({
      status: 'Cessée',
      status_category: 'dissolved',
    });
  });

  it('takes the production date from the option, else the file, else its name, and logs each import', async () => {
    const xml = openDataFile(
      ['registers/ca/corpcan-opendata-corporation-16292721-numbered-cbca-2024.xml'].map(fixtureText),
      '2024-09-10T05:00:00',
    );
    const fromContent = await run({ country: 'CA', file: file('OPEN_DATA_1.xml', xml), producedAt: undefined });
    expect(fromContent).toMatchObject({ producedAtSource: 'file content' });
    expect(fromContent.producedAt.toISOString()).toBe('2024-09-10T05:00:00.000Z');
    const stored = (await companies('CA'))[0];
    expect(new Date(stored.produced_at as string).toISOString()).toBe('2024-09-10T05:00:00.000Z');
    expect(stored.other_numbers).toEqual(['754441624']);

    const fromName = await run({
      country: 'GB',
      file: file('BasicCompanyDataAsOneFile-2024-03-01.csv', fixtureText(GB_SAMPLE)),
      producedAt: undefined,
    });
    expect(fromName).toMatchObject({ producedAtSource: 'file name' });
    expect(fromName.producedAt.toISOString()).toBe('2024-03-01T00:00:00.000Z');

    const log = (await dataSource.query(
      `SELECT country, dataset_name, format, file_name, status, rows_read, rows_inserted, dataset_rows FROM dataset_import ORDER BY id`,
    )) as unknown[];
    expect(log).toEqual([
      {
        country: 'CA',
        dataset_name: 'corporations-canada-open-data',
        format: 'opendata-xml',
        file_name: 'OPEN_DATA_1.xml',
        status: 'done',
        rows_read: 1,
        rows_inserted: 1,
        dataset_rows: 1,
      },
      {
        country: 'GB',
        dataset_name: 'companies-house-basiccompanydata',
        format: 'basiccompanydata-csv',
        file_name: 'BasicCompanyDataAsOneFile-2024-03-01.csv',
        status: 'done',
        rows_read: 3,
        rows_inserted: 3,
        dataset_rows: 3,
      },
    ]);
  });

  it('counts rejections per reason with examples, and prints them in the summary', async () => {
    const [header, a, b, c] = fixtureText(GB_SAMPLE).trim().split('\n');
    const csv = [
      header,
      a.replace('"12778855"', '""'),
      b.replace('"11/09/2012"', '"11/13/2012"'),
      c,
      b.replace('"08209948"', '""'),
    ].join('\n');
    const summary = await run({ country: 'GB', file: file('rejects.csv', csv), datasetName: 'gb-test' });
    expect(summary).toMatchObject({ rows: 1, datasetName: 'gb-test', rejected: { total: 3 } });
    expect(summary.rejected.reasons).toEqual([
      {
        reason: 'missing registration number',
        count: 2,
        examples: [
          { at: 2, reason: 'missing registration number', detail: 'CompanyNumber' },
          { at: 5, reason: 'missing registration number', detail: 'CompanyNumber' },
        ],
      },
      {
        reason: 'bad date',
        count: 1,
        examples: [{ at: 3, reason: 'bad date', detail: 'IncorporationDate "11/13/2012"' }],
      },
    ]);
    const text = formatImportSummary(summary);
    expect(text).toContain('rejected       3');
    expect(text).toContain('- missing registration number: 2 (e.g. #2 CompanyNumber; #5 CompanyNumber)');
    expect(text).toContain('- bad date: 1 (e.g. #3 IncorporationDate "11/13/2012")');
  });

  it('fails readably on a file of another format and logs the failure', async () => {
    const path = file('not-gb.csv', 'siren,denominationUniteLegale\n552032534,DANONE\n');
    await expect(run({ country: 'GB', file: path })).rejects.toThrow(
      'not a BasicCompanyData CSV: header lacks CompanyName, CompanyNumber, CompanyStatus, IncorporationDate',
    );
    const [log] = (await dataSource.query(`SELECT status, error FROM dataset_import`)) as Array<{
      status: string;
      error: string;
    }>;
    expect(log).toEqual({ status: 'failed', error: expect.stringContaining('not a BasicCompanyData CSV') });
    expect(await companies('GB')).toEqual([]);
  });

  it('calls a file that yields no record an error naming the structure it expects, not a success with 0 rows', async () => {
    // One corporation, not wrapped in <cc:corpcan><corporations> as the register's file wraps them.
    const single = file(
      'OPEN_DATA_1.xml',
      fixtureText('registers/ca/corpcan-opendata-corporation-1007-abbotsford-chamber-bota.xml'),
    );
    await expect(run({ country: 'CA', file: single })).rejects.toThrow(
      'no opendata-xml record in the file: expected XML with <corporation> records inside <cc:corpcan><corporations>, as OPEN_DATA_n.xml writes them',
    );
    const header = file('header-only.csv', `${fixtureText(GB_SAMPLE).split('\n')[0]}\n`);
    await expect(run({ country: 'GB', file: header })).rejects.toThrow(
      /^no basiccompanydata-csv record in the file: expected a CSV whose header line names CompanyName/,
    );
    const logs = (await dataSource.query(`SELECT status FROM dataset_import`)) as Array<{ status: string }>;
    expect(logs.map((l) => l.status)).toEqual(['failed', 'failed']);
  });

  it('recognises the AU format from the content when --format is not given', async () => {
    const xml = file('Public01.xml', fixtureText('datasets/au/abn-bulk-extract-constructed-from-docs-sample.xml'));
    expect(await run({ country: 'AU', file: xml })).toMatchObject({ format: 'abn-xml' });
    const zipped = file(
      'public_split_1_10.zip',
      makeZip([
        { name: 'Public01.xml', data: fixtureText('datasets/au/abn-bulk-extract-constructed-from-docs-sample.xml') },
      ]),
    );
    expect(await run({ country: 'AU', file: zipped })).toMatchObject({ format: 'abn-xml' });
    const tsv = file(
      'COMPANY_202611.txt',
      fixtureText('datasets/au/asic-company-dataset-constructed-from-docs-sample.tsv'),
    );
    expect(await run({ country: 'AU', file: tsv })).toMatchObject({ format: 'asic-csv' });
    const other = file('notes.txt', 'hello\n');
    await expect(run({ country: 'AU', file: other })).rejects.toThrow(
      'AU publishes several bulk formats and the beginning of the file is none of them: give --format abn-xml|asic-csv',
    );
  });

  it('records an import killed mid-way as interrupted, and a re-run completes it', async () => {
    // What a killed process leaves: its log row at running, the rows it had written so far.
    const path = file('enheter.json', JSON.stringify(realEnheter()));
    await run({ country: 'NO', file: path });
    await dataSource.query(`DELETE FROM company WHERE registration_number <> $1`, [
      realEnheter()[0].organisasjonsnummer,
    ]);
    await dataSource.query(
      `UPDATE dataset_import SET status = 'running', finished_at = NULL, heartbeat_at = now() - interval '1 hour', rows_read = 1`,
    );
    expect(await new DatasetImportStore(dataSource).markInterrupted()).toBe(1);
    const [log] = (await dataSource.query(`SELECT status, rows_read, error FROM dataset_import`)) as Array<
      Record<string, unknown>
    >;
    expect(log).toMatchObject({ status: 'interrupted', rows_read: 1, error: expect.stringContaining('run it again') });
    const again = await run({ country: 'NO', file: path });
    expect(again.inserted).toBe(realEnheter().length - 1);
    expect(await companies('NO')).toHaveLength(realEnheter().length);
  });

  if (backend === 'postgres') {
    it('loads an empty dataset into a table of its own swapped in for the partition: its indexes built, the sample kept where the file lacks it, a repeated number at its last occurrence', async () => {
      await seedBundledSample(dataSource);
      const sampleNumbers = (await companies('GB')).map((r) => r.registration_number);
      expect(sampleNumbers.length).toBeGreaterThan(0);
      const csv = fixtureText(GB_SAMPLE).split('\n').filter(Boolean);
      // The file's second line again at the end, with another name: the last occurrence wins.
      const repeated = `${csv.slice(0, 4).join('\n')}\n${csv[1].replace('"! LIMITED"', '"! LIMITED AGAIN"')}\n`;
      const summary = await run({ country: 'GB', file: file('BasicCompanyData-repeat.csv', repeated), batchSize: 2 });
      expect(summary).toMatchObject({ writer: 'postgres-copy-bulk', rows: 4 });
      const rows = await companies('GB');
      expect(rows.map((r) => r.registration_number).sort()).toEqual(
        [...new Set([...sampleNumbers, '08209948', '11399177', '12778855'])].sort(),
      );
      expect(rows.find((r) => r.registration_number === '12778855')?.name).toBe('! LIMITED AGAIN');
      // The provenance, given by the load table's defaults during the COPY, is in every row; the
      // partition swapped in has the columns' defaults of any other (none of its own left).
      for (const r of rows.filter((r) => r.dataset_name !== BUNDLED_DATASET)) {
        expect(r).toMatchObject({
          source_kind: 'dataset:companies-house-basiccompanydata',
          dataset_name: 'companies-house-basiccompanydata',
        });
        expect(new Date(r.produced_at as string).toISOString()).toBe('2024-05-01T00:00:00.000Z');
      }
      const defaults = async (table: string) =>
        (await dataSource.query(
          `SELECT column_name, column_default FROM information_schema.columns WHERE table_name = $1 ORDER BY column_name`,
          [table],
        )) as unknown[];
      expect(await defaults('company_gb')).toEqual(await defaults('company_fr'));
      const counted = await wordCounts('GB');
      await refreshWordCounts(dataSource, 'GB');
      expect(await wordCounts('GB')).toEqual(counted);
      const indexes = (await dataSource.query(
        `SELECT indexname FROM pg_indexes WHERE tablename = 'company_gb' AND indexname LIKE '%_gb'`,
      )) as Array<{ indexname: string }>;
      expect(indexes.map((i) => i.indexname).sort()).toEqual(['company_rank_gb', 'company_words_gb']);
      // Now the dataset is not empty: the next import upserts.
      expect((await run({ country: 'GB', file: file('again.csv', fixtureText(GB_SAMPLE)) })).writer).toBe(
        'postgres-copy',
      );
    });

    it('keeps the word counts while loading an empty dataset: the same as counting the table, and a re-import changes nothing', async () => {
      await seedBundledSample(dataSource);
      const csv = fixtureText(GB_SAMPLE).split('\n').filter(Boolean);
      // A name folded to '' has no word, one with a repeated word counts it twice, as the SQL does.
      const lines = [
        csv[0],
        csv[1].replace('"! LIMITED"', '"!!!"'),
        csv[2].replace(/^"[^"]*"/, '"ALPHA ALPHA BETA LIMITED"'),
        ...csv.slice(3),
      ];
      const path = file('BasicCompanyData-words.csv', `${lines.join('\n')}\n`);
      const first = await run({ country: 'GB', file: path, batchSize: 2 });
      expect(first).toMatchObject({ writer: 'postgres-copy-bulk', datasetRows: lines.length - 1 });
      expect(first.datasetRows).toBe(
        Number(
          (
            (await dataSource.query(`SELECT count(*) AS n FROM company WHERE country = 'GB' AND dataset_name = $1`, [
              first.datasetName,
            ])) as Array<{ n: string }>
          )[0].n,
        ),
      );
      const kept = await wordCounts('GB');
      expect(kept.words.find((w) => w.word === 'alpha')?.companies).toBe(2);
      await refreshWordCounts(dataSource, 'GB');
      expect(await wordCounts('GB')).toEqual(kept);
      const again = await run({ country: 'GB', file: path });
      expect(again).toMatchObject({ writer: 'postgres-copy', inserted: 0, updated: 0, unchanged: lines.length - 1 });
      expect(await wordCounts('GB')).toEqual(kept);
    });

    it('keeps the last occurrence of numbers repeated far apart in the file, and counts their words once', async () => {
      const [header, template] = fixtureText(GB_SAMPLE).split('\n');
      const line = (n: number, name: string) =>
        template.replace('"! LIMITED","12778855"', `"${name}","${String(n).padStart(8, '0')}"`);
      const lines = Array.from({ length: 60 }, (_, i) => line(i + 1, `COMPANY ${i + 1} LIMITED`));
      // Number 3 again in the fifth batch of five rows, number 21 in the batch right after its own.
      lines.splice(22, 0, line(3, 'COMPANY THREE AGAIN LIMITED'));
      lines.splice(27, 0, line(21, 'COMPANY TWENTY ONE AGAIN LIMITED'));
      const summary = await run({
        country: 'GB',
        file: file('BasicCompanyData-late-repeat.csv', `${[header, ...lines].join('\n')}\n`),
        batchSize: 5,
      });
      expect(summary).toMatchObject({ writer: 'postgres-copy-bulk', rows: 62, datasetRows: 60 });
      const rows = await companies('GB');
      expect(rows).toHaveLength(60);
      expect(rows.find((r) => r.registration_number === '00000003')?.name).toBe('COMPANY THREE AGAIN LIMITED');
      expect(rows.find((r) => r.registration_number === '00000021')?.name).toBe('COMPANY TWENTY ONE AGAIN LIMITED');
      expect(rows.find((r) => r.registration_number === '00000060')?.name).toBe('COMPANY 60 LIMITED');
      const counted = await wordCounts('GB');
      await refreshWordCounts(dataSource, 'GB');
      expect(await wordCounts('GB')).toEqual(counted);
    });

    it('writes a first import frozen and visible to all: no page of it left for a vacuum, the rank index read without the table', async () => {
      const [header, template] = fixtureText(GB_SAMPLE).split('\n');
      const lines = Array.from({ length: 400 }, (_, i) =>
        template.replace('"! LIMITED","12778855"', `"COMPANY ${i + 1} LIMITED","${String(i + 1).padStart(8, '0')}"`),
      );
      const summary = await run({
        country: 'GB',
        file: file('BasicCompanyData-frozen.csv', `${[header, ...lines].join('\n')}\n`),
      });
      expect(summary).toMatchObject({ writer: 'postgres-copy-bulk', inserted: 400 });
      // The import's ANALYZE counted the pages the visibility map marks all-visible.
      const [pages] = (await dataSource.query(
        `SELECT relpages, relallvisible FROM pg_class WHERE relname = 'company_gb'`,
      )) as Array<{ relpages: number; relallvisible: number }>;
      expect(pages.relpages).toBeGreaterThan(1);
      expect(pages.relallvisible).toBe(pages.relpages);
      const runner = dataSource.createQueryRunner();
      await runner.connect();
      try {
        await runner.query(`SET enable_seqscan = off; SET enable_bitmapscan = off`);
        const [
          {
            'QUERY PLAN': [plan],
          },
        ] = (await runner.query(
          `EXPLAIN (ANALYZE, FORMAT JSON) SELECT id, name_normalized FROM company WHERE country = 'GB' AND name_rank >= 0 ORDER BY name_rank, registration_number LIMIT 300`,
        )) as Array<{ 'QUERY PLAN': Array<{ Plan: Record<string, unknown> }> }>;
        const scans: Array<Record<string, unknown>> = [];
        const walk = (node: Record<string, unknown>) => {
          if (node['Node Type'] === 'Index Only Scan') scans.push(node);
          for (const child of (node.Plans as Array<Record<string, unknown>> | undefined) ?? []) walk(child);
        };
        walk(plan.Plan);
        expect(scans).toEqual([
          expect.objectContaining({ 'Index Name': 'company_rank_gb', 'Actual Rows': 300, 'Heap Fetches': 0 }),
        ]);
      } finally {
        await runner.release();
      }
    });

    it('leaves the country as it was when a first import fails mid-file: its rows, its word counts, no loaded table', async () => {
      await seedBundledSample(dataSource);
      const before = { rows: await companies('GB'), words: await wordCounts('GB') };
      const [header, ...lines] = fixtureText(GB_SAMPLE).trim().split('\n');
      // Rows go to COPY, then a quote that never closes runs past the reader's 4 MB bound.
      const broken = `${[header, ...lines].join('\n')}\n"UNCLOSED LTD,${'x'.repeat(5 * 1024 * 1024)}\n`;
      await expect(run({ country: 'GB', file: file('BasicCompanyData-broken.csv', broken) })).rejects.toThrow(
        /runs past/,
      );
      expect(await companies('GB')).toEqual(before.rows);
      expect(await wordCounts('GB')).toEqual(before.words);
      expect(await dataSource.query(`SELECT to_regclass('company_gb_load') AS t`)).toEqual([{ t: null }]);
      const [log] = (await dataSource.query(`SELECT status FROM dataset_import`)) as Array<{ status: string }>;
      expect(log.status).toBe('failed');
    });

    it("drops a killed first import's loaded table and loads again; a second load of the same country meanwhile is refused", async () => {
      // What a killed import leaves: its table, with whatever it had copied.
      await dataSource.query(`CREATE TABLE company_gb_load (LIKE company INCLUDING DEFAULTS INCLUDING GENERATED)`);
      await dataSource.query(
        `INSERT INTO company_gb_load (country, registration_number, name, name_normalized, status_category, source_url, source_kind, dataset_name, produced_at)
         VALUES ('GB', '99999999', 'STALE LTD', 'stale ltd', 'active', 'x', 'dataset:x', 'x', now())`,
      );
      const holder = dataSource.createQueryRunner();
      await holder.connect();
      try {
        await holder.query(`SELECT pg_advisory_lock(hashtext('company bulk load GB'))`);
        await expect(
          run({ country: 'GB', file: file('BasicCompanyData-busy.csv', fixtureText(GB_SAMPLE)) }),
        ).rejects.toThrow('another import is loading GB into its empty dataset: run this one once it is done');
        await holder.query(`SELECT pg_advisory_unlock(hashtext('company bulk load GB'))`);
      } finally {
        await holder.release();
      }
      const summary = await run({ country: 'GB', file: file('BasicCompanyData-again.csv', fixtureText(GB_SAMPLE)) });
      expect(summary).toMatchObject({ writer: 'postgres-copy-bulk', inserted: 3, datasetRows: 3 });
      expect((await companies('GB')).map((r) => r.registration_number)).toEqual(['08209948', '11399177', '12778855']);
      expect(await dataSource.query(`SELECT to_regclass('company_gb_load') AS t`)).toEqual([{ t: null }]);
    });

    it('swaps in behind a long query of company without holding the searches queued behind its lock', async () => {
      await seedBundledSample(dataSource);
      const holder = dataSource.createQueryRunner();
      await holder.connect();
      const latencies: number[] = [];
      let importing: Promise<unknown> | undefined;
      try {
        // A long read of company (another country's recount, say) holds it while the import ends.
        await holder.query('BEGIN');
        await holder.query(`SELECT count(*) FROM company`);
        importing = run({ country: 'GB', file: file('BasicCompanyData-behind.csv', fixtureText(GB_SAMPLE)) });
        for (const until = Date.now() + 3000; Date.now() < until;) {
          const t = Date.now();
          await dataSource.query(`SELECT count(*) FROM company WHERE country = 'NO'`);
          latencies.push(Date.now() - t);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } finally {
        await holder.query('COMMIT').catch(() => undefined);
        await holder.release();
      }
      expect(await importing).toMatchObject({ writer: 'postgres-copy-bulk', inserted: 3 });
      // Each search waited at most the swap's lock timeout (1 s), not the whole long query (3 s).
      expect(Math.max(...latencies)).toBeLessThan(1800);
    });

    it('leaves an import alone while it beats (another process on the same Postgres)', async () => {
      await dataSource.query(
        `INSERT INTO dataset_import (country, dataset_name, format, file_name, produced_at, status, heartbeat_at) VALUES ('NO', 'x', 'enheter-json', 'f', now(), 'running', now())`,
      );
      expect(await new DatasetImportStore(dataSource).markInterrupted()).toBe(0);
    });
  }
});

describe('import options', () => {
  it('infers the format where a country has one, asks for it in AU, says why CZ has none', () => {
    expect(resolveFormat('NO').id).toBe('enheter-json');
    expect(resolveFormat('AU', 'asic-csv').id).toBe('asic-csv');
    expect(() => resolveFormat('AU')).toThrow('AU publishes several bulk formats: give --format abn-xml|asic-csv');
    expect(() => resolveFormat('GB', 'abn-xml')).toThrow('unknown format "abn-xml" for GB: use basiccompanydata-csv');
    expect(() => resolveFormat('CZ')).toThrow('CZ cannot be imported: ARES publishes no bulk file');
  });

  it.each(COUNTRY_CODES.filter((cc) => REGISTERS[cc].bulkFormats.length === 0))(
    'says %s publishes no bulk file rather than asking for a format',
    (cc) => {
      expect(() => resolveFormat(cc)).toThrow(`${cc} cannot be imported: ${REGISTERS[cc].noBulkFile}`);
    },
  );

  it('finds a production date in the usual file names', () => {
    expect(dateFromFileName('/x/BasicCompanyDataAsOneFile-2024-05-01.zip')?.toISOString()).toBe(
      '2024-05-01T00:00:00.000Z',
    );
    expect(dateFromFileName('20250528_Public01.xml')?.toISOString()).toBe('2025-05-28T00:00:00.000Z');
    expect(dateFromFileName('StockUniteLegale_utf8.zip')).toBeNull();
    expect(dateFromFileName('OPEN_DATA_12.xml')).toBeNull();
    expect(dateFromFileName('x-2024-02-30.csv')).toBeNull();
  });
});
