import { join, resolve } from 'node:path';
import { types as pgTypes } from 'pg';
import type { DataSourceOptions } from 'typeorm';
import type { AppConfig } from '../core/config/app-config';
import { createPGlitePoolClass, openPGlite } from './pglite-pool';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

// Dates stay 'YYYY-MM-DD' strings (node-postgres would shift them to local midnight) and
// bigint counts become numbers; PGlite is configured the same way in pglite-pool.ts.
pgTypes.setTypeParser(pgTypes.builtins.DATE, (v) => v);
pgTypes.setTypeParser(pgTypes.builtins.INT8, (v) => Number(v));

/**
 * The one database configuration, used by the Nest app and the CLI alike: Postgres when
 * DATABASE_URL is set, otherwise PGlite persisted under DATA_DIR (or in memory for tests
 * that pass `dataDir: 'memory://'`).
 */
export function buildDataSourceOptions(config: AppConfig): DataSourceOptions {
  const common = {
    type: 'postgres' as const,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    synchronize: false,
    logging: ['error' as const],
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
  const dataDir = config.dataDir === 'memory://' ? undefined : resolve(join(config.dataDir, 'pglite'));
  return { ...common, driver: { Pool: createPGlitePoolClass(openPGlite(dataDir)) } } as DataSourceOptions;
}
