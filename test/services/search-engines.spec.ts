import { unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatasetService } from '../../src/dataset/dataset.service';
import { importDataset } from '../../src/dataset/import/dataset-importer';
import { createTestDataSource } from '../support/database';

/*
 * The embedded default answers name searches the way Postgres does: the same generated rows
 * imported into PGlite (batched inserts) and into Postgres (COPY), the same queries of every
 * class of issue 12 and some awkward ones, the same companies in the same order.
 */

/* eslint-disable @typescript-eslint/no-require-imports */
const { generateGb } = require('../../bench/bulk-generator') as {
  generateGb: (path: string, rows: number) => Promise<void>;
};
const { buildClasses } = require('../../bench/query-classes') as {
  buildClasses: (o: object) => Promise<Record<string, Array<{ q: string }>>>;
};

const ROWS = 4_000;
const describeWithPostgres = process.env.DATABASE_URL ? describe : describe.skip;

describeWithPostgres(`PGlite and Postgres on the same ${ROWS.toLocaleString('en-US')} rows`, () => {
  const engines: Array<Awaited<ReturnType<typeof createTestDataSource>>> = [];
  const file = join(tmpdir(), `rl-engines-${process.pid}.csv`);

  beforeAll(async () => {
    await generateGb(file, ROWS);
    for (const backend of ['pglite', 'postgres'] as const) {
      const e = await createTestDataSource(backend);
      await importDataset({ ...e, country: 'GB', file, producedAt: new Date('2026-11-01T00:00:00Z') });
      engines.push(e);
    }
  }, 180_000);
  afterAll(async () => {
    for (const e of engines) await e.close();
    try {
      unlinkSync(file);
    } catch {
      /* not written */
    }
  });

  it('gives the same answers to every class of query', async () => {
    const [pglite, postgres] = engines.map((e) => new DatasetService(e.dataSource));
    const ds = engines[1].dataSource;
    const classes = await buildClasses({
      rows: ROWS,
      perClass: 25,
      limit: 20,
      counts: async (words: string[]) =>
        new Map(
          (
            (await ds.query(
              `SELECT word, companies FROM company_word WHERE country = 'GB' AND word = ANY($1::text[])`,
              [words],
            )) as Array<{ word: string; companies: number }>
          ).map((r) => [r.word, Number(r.companies)]),
        ),
      beginning: async () => 0,
    });
    const queries = [
      ...Object.entries(classes)
        .filter(([k]) => k !== 'number')
        .flatMap(([, qs]) => qs.map((x) => x.q)),
      'limited',
      'ltd',
      'the',
      'uk',
      'a',
      'zz',
      'holdings services uk group',
      'Æble Ø',
      'x'.repeat(60),
    ];
    let compared = 0;
    for (const q of queries) {
      const [a, b] = await Promise.all([pglite.searchByName('GB', q, 20), postgres.searchByName('GB', q, 20)]);
      expect({ q, numbers: a.map((r) => r.registrationNumber) }).toEqual({
        q,
        numbers: b.map((r) => r.registrationNumber),
      });
      compared += a.length;
    }
    // The comparison is not between empty answers.
    expect(compared).toBeGreaterThan(queries.length * 5);
  }, 120_000);
});
