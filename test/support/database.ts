import { ensureCompanyPartitions } from '../../src/dataset/company-partitions';
import { COUNTRY_CODES } from '../../src/registers/registers';
import { loadConfig } from '../../src/app/config';
import type { RegistersConfig } from '../../src/registers/register-config';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../src/platform/config/app-config';
import { DATABASE_SCHEMA } from '../../src/app/database-schema';
import { buildDataSourceOptions } from '../../src/platform/database/data-source-options';
import { runMigrations } from '../../src/platform/database/migrate';
import { ensureEmbeddedTemplate } from './embedded-templates';

/** True when the real-services suites can run (CI sets both). */
export const HAS_SERVICES = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);

/**
 * A fresh, empty, migrated Postgres database for one test file, created next to the one
 * DATABASE_URL names; `drop()` removes it.
 */
export async function createTestPostgresDatabase(
  prefix = 'rl_test',
): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('DATABASE_URL is not set');
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export type TestBackend = 'pglite' | 'postgres';

/** A migrated DataSource on PGlite (in memory) or on a fresh Postgres database. */
export async function createTestDataSource(
  backend: TestBackend,
  /** As an operator command (an import) opens it: its queries are not bounded in time. */
  options: { command?: string } = {},
): Promise<{ dataSource: DataSource; config: AppConfig; registers: RegistersConfig; close: () => Promise<void> }> {
  let drop = async () => undefined as void;
  let env: NodeJS.ProcessEnv;
  if (backend === 'postgres') {
    const db = await createTestPostgresDatabase();
    drop = db.drop;
    env = { DATABASE_URL: db.url };
  } else {
    // Migrated like any test database, without the bundled sample (from the empty template).
    env = { DATA_DIR: 'memory://', DATASET_SEED: 'false' };
  }
  const { app: config, registers } = loadConfig(env, 'worker');
  await ensureEmbeddedTemplate(config);
  const dataSource = new DataSource(buildDataSourceOptions(config, DATABASE_SCHEMA, options));
  await dataSource.initialize();
  await runMigrations(dataSource);
  await ensureCompanyPartitions(dataSource, COUNTRY_CODES);
  return {
    dataSource,
    config,
    registers,
    close: async () => {
      await dataSource.destroy();
      await drop();
    },
  };
}
