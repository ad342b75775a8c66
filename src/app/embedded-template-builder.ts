import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource, DataSourceOptions, MigrationInterface } from 'typeorm';
import { ensureCompanyPartitions } from '../dataset/company-partitions';
import { seedBundledSample } from '../dataset/seed/bundled-sample';
import { COUNTRY_CODES } from '../registers/registers';
import { installTemplate, templatePath, templateRoot } from '../platform/database/embedded-template';
import { templateKey } from './database-schema';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';
import { createPGlitePoolClass, openPGlite } from '../platform/database/pglite-pool';
import { runMigrations } from '../platform/database/migrate';

/**
 * Builds a template: a fresh PGlite data directory with `migrations` applied (and the bundled
 * sample when `seed`), installed under `root` by its key. Returns the key.
 */
export async function buildTemplate(options: {
  seed: boolean;
  root?: string;
  migrations?: Array<new () => MigrationInterface>;
}): Promise<string> {
  const migrations = options.migrations ?? MIGRATIONS;
  const root = options.root ?? templateRoot();
  const key = templateKey(options.seed, migrations);
  mkdirSync(root, { recursive: true });
  const work = mkdtempSync(join(root, '.build-'));
  try {
    const dataDir = join(work, 'pglite');
    const dataSource = new DataSource({
      type: 'postgres',
      entities: ENTITIES,
      migrations,
      migrationsTableName: 'migrations',
      synchronize: false,
      logging: ['error'],
      driver: { embedded: true, Pool: createPGlitePoolClass(openPGlite(dataDir)) },
    } as DataSourceOptions);
    await dataSource.initialize();
    try {
      await runMigrations(dataSource);
      await ensureCompanyPartitions(dataSource, COUNTRY_CODES);
      if (options.seed) await seedBundledSample(dataSource);
      // The service uses the `postgres` database only. initdb's template0 and template1 are
      // there for CREATE DATABASE, which nothing here runs: without them a new data directory
      // is 514 files and 26 MB to copy instead of 1,116 and 40 MB (a tenth of a cold start).
      for (const template of ['template0', 'template1']) {
        await dataSource.query(`ALTER DATABASE ${template} IS_TEMPLATE false`);
        await dataSource.query(`DROP DATABASE ${template}`);
      }
      await dataSource.query('CHECKPOINT');
    } finally {
      await dataSource.destroy();
    }
    // The same database as a dump, for databases in memory.
    const db = await openPGlite(dataDir);
    const dump = Buffer.from(await (await db.dumpDataDir('gzip')).arrayBuffer());
    await db.close();
    installTemplate(dataDir, key, root, dump);
    return key;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Builds the template of the current code (seeded or empty) unless it is installed already: the key it built, or null. */
export async function ensureTemplate(seed: boolean): Promise<string | null> {
  const path = templatePath(templateKey(seed));
  if (existsSync(join(path, 'PG_VERSION')) && existsSync(`${path}.tgz`)) return null;
  return buildTemplate({ seed });
}
