import type { RegistersConfig } from '../../src/registers/register-config';
import { statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import {
  generateAbnXml,
  generateAsicTsv,
  generateCaXml,
  generateDkJsonl,
  generateFrCsv,
  generateGbCsv,
  generateNoJsonGz,
} from '../support/bulk-file-generators';
import { createTestDataSource } from '../support/database';
import { fixtureText } from '../support/dataset-fixtures';
import type { AppConfig } from '../../src/platform/config/app-config';
import { DatasetService, matchSql } from '../../src/dataset/dataset.service';
import { measureMemory } from '../support/memory';
import { importDataset } from '../../src/dataset/import/dataset-importer';

/*
 * One generated file of 1,000,000 records per format, imported on Postgres with COPY while
 * memory is sampled (every second a full garbage collection, then the heap in use: what the
 * import really keeps). A reader or writer that kept rows, or read ahead of the database,
 * would hold several hundred MB of row objects (the files are 100–700 MB); the bound is
 * 100 MB. These take 30–90 s each: they belong to the real-services suite (they run only with
 * DATABASE_URL).
 */

const ROWS = Number(process.env.DATASET_TEST_ROWS ?? 1_000_000);
const MB = 1024 * 1024;
const HEAP_GROWTH_LIMIT = 100 * MB;
const RSS_GROWTH_LIMIT = 300 * MB;

interface Case {
  country: string;
  format: string;
  ext: string;
  generate: (path: string) => Promise<void>;
  /** Rows that must arrive (the ASIC file has former-name rows, which are skipped). */
  rows: number;
  skipped: number;
  probe: { number: string; name: RegExp };
}

const gbHeader = () => fixtureText('registers/gb/ch-bulk-basiccompanydata-sample.csv').split('\n')[0];
const formerNameRows = Math.floor((ROWS + 0) / 10);

const CASES: Case[] = [
  {
    country: 'GB',
    format: 'basiccompanydata-csv',
    ext: 'csv',
    generate: (p) => generateGbCsv(p, ROWS, gbHeader()),
    rows: ROWS,
    skipped: 0,
    probe: { number: '00000042', name: /LIMITED$/ },
  },
  {
    country: 'FR',
    format: 'stockunitelegale-csv',
    ext: 'csv',
    generate: (p) => generateFrCsv(p, ROWS),
    rows: ROWS,
    skipped: 0,
    probe: { number: '100000041', name: /SAS$/ },
  },
  {
    country: 'NO',
    format: 'enheter-json',
    ext: 'json.gz',
    generate: (p) => generateNoJsonGz(p, ROWS),
    rows: ROWS,
    skipped: 0,
    probe: { number: '800000041', name: / AS$/ },
  },
  {
    country: 'DK',
    format: 'virksomhed-jsonl',
    ext: 'jsonl',
    generate: (p) => generateDkJsonl(p, ROWS),
    rows: ROWS,
    skipped: 0,
    probe: { number: '10000041', name: /ApS$/ },
  },
  {
    country: 'AU',
    format: 'abn-xml',
    ext: 'xml',
    generate: (p) => generateAbnXml(p, ROWS),
    rows: ROWS,
    skipped: 0,
    probe: { number: '10000000041', name: /PTY LTD$/ },
  },
  {
    country: 'AU',
    format: 'asic-csv',
    ext: 'txt',
    generate: (p) => generateAsicTsv(p, ROWS),
    rows: ROWS - formerNameRows,
    skipped: formerNameRows,
    probe: { number: '20000000041', name: /PTY LTD$/ },
  },
  {
    country: 'CA',
    format: 'opendata-xml',
    ext: 'xml',
    generate: (p) => generateCaXml(p, ROWS),
    rows: ROWS,
    skipped: 0,
    probe: { number: '10000041', name: /INC\.$/ },
  },
];

const describeWithPostgres = process.env.DATABASE_URL ? describe : describe.skip;

describeWithPostgres(`importing ${ROWS.toLocaleString('en-US')} records per format on Postgres`, () => {
  let dataSource: DataSource;
  let config: AppConfig;
  let registers: RegistersConfig;
  let close: () => Promise<void>;
  const figures: string[] = [];

  beforeAll(async () => {
    ({ dataSource, config, registers, close } = await createTestDataSource('postgres', { command: 'dataset:import' }));
  }, 60_000);
  afterAll(async () => {
    await close?.();
    if (figures.length) process.stdout.write(`\n${figures.join('\n')}\n`);
  }, 60_000);

  it.each(CASES)(
    '$country $format: COPY import in constant memory',
    async (c) => {
      const path = join(tmpdir(), `rl-million-${process.pid}-${c.format}.${c.ext}`);
      const genStart = Date.now();
      try {
        await c.generate(path);
        const size = statSync(path).size;
        const genSeconds = (Date.now() - genStart) / 1000;

        const { result: summary, peaks } = await measureMemory(() =>
          importDataset({
            dataSource,
            config,
            registers,
            country: c.country,
            format: c.format,
            file: path,
            producedAt: new Date('2025-01-01T00:00:00Z'),
          }),
        );
        const heapGrowth = peaks.liveHeapGrowth;
        const rssGrowth = peaks.rssGrowth;
        figures.push(
          `${c.country} ${c.format.padEnd(22)} file ${(size / MB).toFixed(0).padStart(4)} MB (generated in ${genSeconds.toFixed(1)} s) | ` +
            `${summary.rows.toLocaleString('en-US')} rows in ${summary.seconds.toFixed(1)} s = ${Math.round(summary.rowsPerSecond).toLocaleString('en-US')} rows/s | ` +
            `live heap +${(heapGrowth / MB).toFixed(0)} MB, peak rss +${(rssGrowth / MB).toFixed(0)} MB`,
        );

        expect(['postgres-copy-bulk', 'postgres-copy']).toContain(summary.writer);
        expect(summary).toMatchObject({ rows: c.rows, rejected: { total: 0 }, skipped: { total: c.skipped } });
        expect(summary.inserted).toBe(c.rows);
        expect(heapGrowth).toBeLessThan(HEAP_GROWTH_LIMIT);
        expect(rssGrowth).toBeLessThan(RSS_GROWTH_LIMIT);

        const found = await new DatasetService(dataSource).findByNumber(c.country, c.probe.number);
        expect(found?.name).toMatch(c.probe.name);
      } finally {
        try {
          unlinkSync(path);
        } catch {
          /* already gone */
        }
      }
    },
    300_000,
  );

  it('serves name search from the per-country word index on the imported data', async () => {
    await dataSource.query('VACUUM ANALYZE company');
    // The GIN read runs inside company_name_matches: its index scans are counted.
    const scans = async () =>
      Number(
        (
          (await dataSource.query(
            `SELECT idx_scan FROM pg_stat_user_indexes WHERE indexrelname = 'company_words_gb'`,
          )) as Array<{ idx_scan: string }>
        )[0].idx_scan,
      );
    const before = await scans();
    expect(
      (await dataSource.query(matchSql('GB'), ["'sesam' & 'stasjon'", "'sesam' & 'stasjon'", 20, 'sesam stasjon']))
        .length,
    ).toBeGreaterThan(0);
    for (let i = 0; i < 50 && (await scans()) === before; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await scans()).toBeGreaterThan(before);
    const results = await new DatasetService(dataSource).searchByName('GB', 'Sesam Stasjon', 20);
    expect(results).toHaveLength(20);
    expect(results.every((r) => /\bSESAM\b/.test(r.name) && /\bSTASJON\b/.test(r.name))).toBe(true);
    // Those that begin with the words as typed come first.
    const leading = results.map((r) => r.name.startsWith('SESAM STASJON '));
    expect(leading).toEqual([...leading].sort((a, b) => Number(b) - Number(a)));
    expect(leading[0]).toBe(true);
  }, 120_000);
});
