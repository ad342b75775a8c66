import { join, resolve } from 'node:path';
import { types as pgTypes } from 'pg';
import type { DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import type * as PGlitePool from './pglite-pool';
import { DataDirLock, SERVICE_COMMAND } from './data-dir-lock';
import type { DatabaseSchema } from './database-schema';
import { QueryErrorLogger } from './query-error-logger';

// Dates stay 'YYYY-MM-DD' strings (node-postgres would shift them to local midnight) and
// bigint counts become numbers; PGlite is configured the same way in pglite-pool.ts.
pgTypes.setTypeParser(pgTypes.builtins.DATE, (v) => v);
pgTypes.setTypeParser(pgTypes.builtins.INT8, (v) => Number(v));

/**
 * The one database configuration, used by the Nest app and the CLI alike: Postgres when
 * DATABASE_URL is set, otherwise PGlite persisted under DATA_DIR (or in memory for tests
 * that pass `dataDir: 'memory://'`).
 */
export function buildDataSourceOptions(
  config: AppConfig,
  schema: DatabaseSchema,
  options: { command?: string } = {},
): DataSourceOptions {
  const common = {
    type: 'postgres' as const,
    entities: schema.entities,
    migrations: schema.migrations,
    migrationsTableName: 'migrations',
    synchronize: false,
    logging: ['error' as const],
    logger: new QueryErrorLogger(),
  };
  if (config.databaseUrl) {
    return {
      ...common,
      url: config.databaseUrl,
      applicationName: `registry-lookup-${config.role}`,
      poolSize: 10,
      extra: { connectionTimeoutMillis: 5_000, statement_timeout: 30_000 },
    };
  }
  const { createPGlitePoolClass, openPGlite } = pglitePool();
  // A new data directory (or an in-memory database) starts as a copy of the prepared template (migrated, seeded) when there is one.
  const template = config.migrateOnBoot ? schema.templateKey(config.datasetSeed) : undefined;
  if (config.dataDir === 'memory://')
    return {
      ...common,
      driver: { Pool: createPGlitePoolClass(openPGlite(undefined, { template })) },
    } as DataSourceOptions;
  // One process at a time on a data directory: two PGlite instances writing the same files
  // leave a database that no longer opens. Released when the pool ends (or the process exits).
  // The lock is taken before the template is copied in, so two first starts cannot both copy.
  const lock = DataDirLock.acquire(config.dataDir, options.command ?? SERVICE_COMMAND);
  let db: ReturnType<typeof openPGlite>;
  try {
    db = openPGlite(resolve(join(config.dataDir, 'pglite')), { template });
  } catch (err) {
    lock.release();
    throw err;
  }
  return {
    ...common,
    driver: { Pool: createPGlitePoolClass(db, () => lock.release()) },
    dataDirLock: lock,
  } as DataSourceOptions;
}

/**
 * The embedded engine's code, loaded only for an embedded database: PGlite's wrapper took 0.2 s
 * of every start on Postgres (an api replica, each `dataset:import`).
 */
function pglitePool(): typeof PGlitePool {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./pglite-pool') as typeof PGlitePool;
}

/** The data-directory lock a DataSource built by buildDataSourceOptions holds (embedded, on disk). */
export function dataDirLockOf(options: DataSourceOptions): DataDirLock | undefined {
  return (options as { dataDirLock?: DataDirLock }).dataDirLock;
}
