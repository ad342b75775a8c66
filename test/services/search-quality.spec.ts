import type { RegistersConfig } from '../../src/registers/register-config';
import { unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../../src/platform/config/app-config';
import { DatasetService } from '../../src/dataset/dataset.service';
import { importDataset } from '../../src/dataset/import/dataset-importer';
import { createTestDataSource } from '../support/database';

/*
 * The ranking and the typo / prefix recall of the fallback name search, on 200,000 realistic
 * Companies House rows (bench/bulk-generator.js: Zipf-distributed words of a real word list,
 * the usual company words, the official 55-column layout) imported through COPY on Postgres,
 * with the query classes of issue 12 made from real rows (bench/query-classes.js). The 5 M
 * run of the same classes is a benchmark (bench/national-scale.js), not this test.
 */

/* eslint-disable @typescript-eslint/no-require-imports */
const { generateGb } = require('../../bench/bulk-generator') as {
  generateGb: (path: string, rows: number) => Promise<void>;
};
const { buildClasses, judge } = require('../../bench/query-classes') as {
  buildClasses: (o: object) => Promise<Record<string, Array<{ q: string; i: number; ambiguous?: boolean }>>>;
  judge: (
    kind: string,
    q: { q: string; i: number; ambiguous?: boolean },
    results: Array<{ name: string; registrationNumber: string }>,
  ) => { found: boolean | null; loose: boolean | null };
};

const ROWS = Number(process.env.SEARCH_QUALITY_ROWS ?? 200_000);
const LIMIT = 20;
const describeWithPostgres = process.env.DATABASE_URL ? describe : describe.skip;

describeWithPostgres(`name search quality on ${ROWS.toLocaleString('en-US')} realistic GB rows`, () => {
  let dataSource: DataSource;
  let config: AppConfig;
  let registers: RegistersConfig;
  let close: () => Promise<void>;
  let service: DatasetService;
  let classes: Awaited<ReturnType<typeof buildClasses>>;
  const file = join(tmpdir(), `rl-search-quality-${process.pid}.csv`);
  const figures: string[] = [];

  beforeAll(async () => {
    ({ dataSource, config, registers, close } = await createTestDataSource('postgres', { command: 'dataset:import' }));
    await generateGb(file, ROWS);
    const summary = await importDataset({
      dataSource,
      config,
      registers,
      country: 'GB',
      file,
      producedAt: new Date('2026-11-01T00:00:00Z'),
    });
    expect(summary.inserted).toBe(ROWS);
    service = new DatasetService(dataSource);
    classes = await buildClasses({
      rows: ROWS,
      perClass: 100,
      limit: LIMIT,
      counts: async (words: string[]) => {
        const rows = (await dataSource.query(
          `SELECT word, companies FROM company_word WHERE country = 'GB' AND word = ANY($1::text[])`,
          [words],
        )) as Array<{ word: string; companies: number }>;
        return new Map(rows.map((r) => [r.word, Number(r.companies)]));
      },
      beginning: async (prefix: string, limit: number) => {
        const words = prefix.split(' ');
        const q = words.map((w, k) => (k === words.length - 1 ? `'${w}':*` : `'${w}'`)).join(' & ');
        const rows = (await dataSource.query(
          `SELECT count(*)::int AS n FROM (SELECT 1 FROM company WHERE country = 'GB'
             AND array_to_tsvector(string_to_array(name_normalized, ' ')) @@ $1::tsquery AND name_normalized LIKE $2 LIMIT $3) s`,
          [q, `${prefix}%`, limit],
        )) as Array<{ n: number }>;
        return rows[0].n;
      },
    });
  }, 240_000);

  afterAll(async () => {
    if (figures.length) process.stdout.write(`\n${figures.join('\n')}\n`);
    await close?.();
    try {
      unlinkSync(file);
    } catch {
      /* not written */
    }
  });

  async function rates(
    kind: string,
  ): Promise<{ found: number; loose: number; empty: number; answers: Array<{ q: string; results: string[] }> }> {
    let found = 0;
    let loose = 0;
    let empty = 0;
    const answers = [];
    for (const query of classes[kind]) {
      const results = await service.searchByName('GB', query.q, LIMIT);
      const j = judge(kind, query, results);
      found += j.found ? 1 : 0;
      loose += j.loose ? 1 : 0;
      empty += results.length === 0 ? 1 : 0;
      answers.push({ q: query.q, results: results.map((r) => r.name) });
    }
    const n = classes[kind].length;
    figures.push(
      `${kind.padEnd(7)} found ${((100 * found) / n).toFixed(0)}%, counting identical names / ambiguous prefixes ${((100 * loose) / n).toFixed(0)}%, empty answers ${empty}`,
    );
    return { found: found / n, loose: loose / n, empty, answers };
  }

  it('finds the company of a rare word (≥ 98%)', async () => {
    const r = await rates('rare');
    expect(r.found).toBeGreaterThanOrEqual(0.98);
  }, 60_000);

  it('finds the company of a two-word name, or one with exactly its name (≥ 90%)', async () => {
    const r = await rates('exact');
    expect(r.loose).toBeGreaterThanOrEqual(0.9);
  }, 60_000);

  it('finds the company of a name with one typo (≥ 80%), and never answers a typo with nothing', async () => {
    const r = await rates('typo');
    expect(r.loose).toBeGreaterThanOrEqual(0.8);
    // The real name is one edit away from every one of these queries, and it matches.
    expect(r.empty).toBe(0);
  }, 60_000);

  it('finds the company of the first one or two words of its name, as typed (≥ 80%, counting prefixes that 20+ names begin with)', async () => {
    const r = await rates('prefix');
    expect(r.loose).toBeGreaterThanOrEqual(0.8);
  }, 60_000);

  it('answers common words with the shortest names that hold them, never nothing', async () => {
    const r = await rates('common');
    expect(r.empty).toBe(0);
    const uk = await service.searchByName('GB', 'uk', LIMIT);
    expect(uk).toHaveLength(LIMIT);
    expect(uk.every((c) => / UK( |$)|^UK /.test(c.name))).toBe(true);
  }, 60_000);

  it('puts names with the exact words first: those that begin with them as typed, then the shortest', async () => {
    const [{ i, q }] = classes.exact;
    const results = await service.searchByName('GB', q, LIMIT);
    expect(judge('exact', { q, i }, results).loose).toBe(true);
    const words = q.toLowerCase().split(' ');
    // Names holding both words come first; looser matches (typo corrections) only after them.
    const holds = results.map((r) => words.every((w) => ` ${r.name.toLowerCase()} `.includes(` ${w} `)));
    const firstLoose = holds.indexOf(false);
    if (firstLoose >= 0) expect(holds.slice(firstLoose)).not.toContain(true);
    // Names that begin with the query's words as typed first, then rank order: fewer words, then fewer characters.
    const key = (name: string) => [
      name.toLowerCase().startsWith(words.join(' ')) ? 0 : 1,
      name.split(' ').length * 1024 + name.length,
    ];
    const exact = results.filter((_, k) => holds[k]).map((r) => key(r.name));
    expect(exact).toEqual([...exact].sort((a, b) => a[0] - b[0] || a[1] - b[1]));
  }, 60_000);
});
