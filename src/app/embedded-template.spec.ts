import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { DataSource, DataSourceOptions } from 'typeorm';
import { ensureCompanyPartitions } from '../dataset/company-partitions';
import BUNDLED from '../dataset/seed/bundled-sample.json';
import { COUNTRY_CODES } from '../registers/registers';
import { templateKey } from './database-schema';
import { createFromTemplate, templatePath } from '../platform/database/embedded-template';
import { buildTemplate } from './embedded-template-builder';
import { ENTITIES } from './entities';
import { runMigrations } from '../platform/database/migrate';
import { MIGRATIONS } from './migrations';
import { createPGlitePoolClass, openPGlite } from '../platform/database/pglite-pool';

jest.setTimeout(120_000);

/** Tables, columns, indexes and constraints, and the applied migrations: what "the same database" means here. */
async function describeSchema(db: PGlite): Promise<unknown> {
  const q = async (sql: string) => (await db.query(sql)).rows;
  return {
    columns: await q(
      `SELECT table_name, column_name, data_type, is_nullable, column_default, generation_expression FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 2`,
    ),
    indexes: await q(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1`),
    constraints: await q(
      `SELECT conname, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1`,
    ),
    migrations: (await q(`SELECT name FROM migrations ORDER BY id`)).map((r) => (r as { name: string }).name),
  };
}

/** Every file under `dir` (relative path, mode and a digest of its bytes): what "an identical copy" means. */
function tree(dir: string, under = ''): string[] {
  return readdirSync(join(dir, under), { withFileTypes: true })
    .flatMap((e) => {
      const rel = join(under, e.name);
      if (e.isDirectory()) return [`${rel}/`, ...tree(dir, rel)];
      const file = join(dir, rel);
      return [
        `${rel} ${statSync(file).mode.toString(8)} ${createHash('sha256').update(readFileSync(file)).digest('hex')}`,
      ];
    })
    .sort();
}

async function migrate(dataDir: string, template?: string, migrations = MIGRATIONS): Promise<unknown> {
  const db = openPGlite(dataDir, { template });
  const dataSource = new DataSource({
    type: 'postgres',
    entities: ENTITIES,
    migrations,
    migrationsTableName: 'migrations',
    logging: ['error'],
    driver: { embedded: true, Pool: createPGlitePoolClass(db) },
  } as DataSourceOptions);
  await dataSource.initialize();
  try {
    const applied = await runMigrations(dataSource);
    // What boot gives every migrated database (DATABASE_SCHEMA.prepare): a partition per register.
    await ensureCompanyPartitions(dataSource, COUNTRY_CODES);
    const companies = (await dataSource.query(`SELECT count(*)::int AS n FROM company`)) as Array<{ n: number }>;
    return { applied, companies: companies[0].n, schema: await describeSchema(await db) };
  } finally {
    await dataSource.destroy();
  }
}

describe('embedded data directories made from a template', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'rl-template-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keys a template by the migrations, the seed and its content', () => {
    expect(templateKey(true)).toMatch(/^seeded-[0-9a-f]{16}$/);
    expect(templateKey(false)).toMatch(/^empty-/);
    expect(templateKey(true, MIGRATIONS.slice(0, -1))).not.toBe(templateKey(true));
  });

  it('gives the same database as migrating a new one, and later migrations still apply to it', async () => {
    const root = join(dir, 'templates');
    const reference = await migrate(join(dir, 'migrated'));
    // A template made before the last migration existed: a directory made from it is migrated on.
    const older = await buildTemplate({ seed: false, root, migrations: MIGRATIONS.slice(0, -1) });
    const fromOlder = join(dir, 'from-older');
    expect(createFromTemplate(fromOlder, older, root)).toBe(true);
    const migratedOn = (await migrate(fromOlder)) as { applied: string[]; schema: unknown };
    expect(migratedOn.applied).toEqual([MIGRATIONS[MIGRATIONS.length - 1].name]);
    expect(migratedOn.schema).toEqual((reference as { schema: unknown }).schema);
    // A current template: nothing left to apply, and the bundled sample already there.
    const current = await buildTemplate({ seed: true, root });
    const fromCurrent = join(dir, 'from-current');
    expect(createFromTemplate(fromCurrent, current, root)).toBe(true);
    const copied = tree(fromCurrent);
    expect(copied.length).toBeGreaterThan(100);
    expect(readdirSync(join(fromCurrent, 'base'))).toHaveLength(1); // the postgres database alone: no template0, template1
    expect(copied).toEqual(tree(templatePath(current, root)));
    expect(readdirSync(dir).filter((name) => name.includes('from-template'))).toEqual([]); // no staging copy left behind
    expect(await migrate(fromCurrent)).toEqual({
      applied: [],
      companies: BUNDLED.length,
      schema: (reference as { schema: unknown }).schema,
    });
  });

  it('never touches a directory that holds something, and does without a template it does not have', () => {
    const root = join(dir, 'templates');
    const used = join(dir, 'used');
    mkdirSync(used);
    writeFileSync(join(used, 'PG_VERSION'), '17');
    expect(createFromTemplate(used, templateKey(true), root)).toBe(false);
    expect(createFromTemplate(join(dir, 'other'), 'seeded-0000000000000000', root)).toBe(false);
    expect(existsSync(join(dir, 'other'))).toBe(false);
  });
});
