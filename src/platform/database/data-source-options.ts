import { join, resolve } from 'node:path';
import { types as pgTypes } from 'pg';
import type { DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import type * as PGlitePool from './pglite-pool';
import { DataDirLock, SERVICE_COMMAND } from './data-dir-lock';
import type { DatabaseSchema } from './database-schema';
import { lanedPg, PoolShare } from './laned-pool';
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
    const { general, publicShare } = postgresShares(config, options.command);
    return {
      ...common,
      url: config.databaseUrl,
      applicationName: `registry-lookup-${options.command ?? config.role}`,
      poolSize: config.database.poolSize,
      extra: general,
      driver: lanedPg(publicShare),
    };
  }
  const { createPGlitePoolClass, openPGlite } = pglitePool();
  // A new data directory (or an in-memory database) starts as a copy of the prepared template (migrated, seeded) when there is one.
  const template = config.migrateOnBoot ? schema.templateKey(config.datasetSeed) : undefined;
  // One session: a request's wait for it is its whole budget (see postgresShares).
  const requestWaitMs = options.command ? Infinity : config.database.poolWaitMs + config.database.queryTimeoutMs;
  if (config.dataDir === 'memory://')
    return {
      ...common,
      driver: {
        embedded: true,
        Pool: createPGlitePoolClass(openPGlite(undefined, { template }), undefined, undefined, requestWaitMs),
      },
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
    driver: { embedded: true, Pool: createPGlitePoolClass(db, () => lock.release(), undefined, requestWaitMs) },
    dataDirLock: lock,
  } as DataSourceOptions;
}

/** TCP keepalive: a peer that vanished is noticed by the kernel, not by a query waiting forever. */
const KEEPALIVE = { keepAlive: true, keepAliveInitialDelayMillis: 10_000 };

/**
 * How long work may wait for Postgres, by who waits. Requests of the api wait briefly for a
 * connection and a query is bounded client-side too (a stalled network), so a request gets 503
 * within about DATABASE_POOL_WAIT_MS + DATABASE_QUERY_TIMEOUT_MS; the public reads take their
 * connections from a share of their own (laned-pool.ts). Background work (the worker) may wait
 * longer; operator commands (an import's COPY, index builds) are not bounded.
 */
function postgresShares(config: AppConfig, command?: string): { general: PoolShare; publicShare: PoolShare } {
  if (command) return { general: { ...KEEPALIVE, connectionTimeoutMillis: 10_000 }, publicShare: { max: 1 } };
  if (config.role === 'worker') {
    const background = {
      ...KEEPALIVE,
      connectionTimeoutMillis: 10_000,
      statement_timeout: 30_000,
      query_timeout: 35_000,
      lock_timeout: 10_000,
      idle_in_transaction_session_timeout: 60_000,
    };
    return { general: background, publicShare: { max: 1 } };
  }
  const { poolWaitMs, queryTimeoutMs, publicPoolSize } = config.database;
  const bounded = (queryMs: number): PoolShare => ({
    ...KEEPALIVE,
    connectionTimeoutMillis: poolWaitMs,
    query_timeout: queryMs,
    // The server gives up a little before the client does, so the session stays usable.
    statement_timeout: Math.max(200, queryMs - 500),
    lock_timeout: Math.max(100, Math.floor(queryMs / 2)),
    idle_in_transaction_session_timeout: Math.max(10_000, queryMs * 3),
  });
  return {
    general: bounded(queryTimeoutMs),
    publicShare: { ...bounded(Math.min(queryTimeoutMs, 5_000)), max: publicPoolSize },
  };
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
