import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import BUNDLED from '../dataset/seed/bundled-sample.json';
import { BUNDLED_PRODUCED_AT, seedBundledSample } from '../dataset/seed/bundled-sample';
import type { AppConfig } from '../platform/config/app-config';
import type { DatabaseSchema } from '../platform/database/database-schema';
import { PGLITE_VERSION } from '../platform/database/embedded-template';
import { ensureCompanyPartitions } from '../dataset/company-partitions';
import { COUNTRY_CODES } from '../registers/registers';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

/** Bumped when embedded-template-builder.ts makes templates differently (2: initdb's template databases dropped). */
const TEMPLATE_BUILDER_VERSION = 2;

/** The key of the template for the current code: the migrations (names and code), the seed and its content, PGlite's version, the builder's. */
export function templateKey(
  seed: boolean,
  migrations: ReadonlyArray<{ name: string; prototype?: { up?: unknown } }> = MIGRATIONS,
): string {
  const h = createHash('sha256');
  h.update(`pglite ${PGLITE_VERSION}\n`);
  // How the builder makes a template (embedded-template-builder.ts): a change makes a new one.
  h.update(`builder ${TEMPLATE_BUILDER_VERSION}\n`);
  // The name and the code of each migration: an edited migration makes a new template too.
  for (const m of migrations) h.update(`migration ${m.name}\n${String(m.prototype?.up ?? '')}\n`);
  // Each register's partition of company (ensureCompanyPartitions): a new register makes a new template.
  h.update(`registers ${COUNTRY_CODES.join(',')}\n`);
  if (seed) h.update(`seed ${BUNDLED_PRODUCED_AT} ${JSON.stringify(BUNDLED)}\n`);
  return `${seed ? 'seeded' : 'empty'}-${h.digest('hex').slice(0, 16)}`;
}

/** The service's database: every table's entity, the migrations, and what a migrated database is seeded with. */
export const DATABASE_SCHEMA: DatabaseSchema = {
  entities: ENTITIES,
  migrations: MIGRATIONS,
  templateKey: (seed) => templateKey(seed),
  prepare: async (dataSource: DataSource, config: AppConfig) => {
    await ensureCompanyPartitions(dataSource, COUNTRY_CODES);
    if (config.datasetSeed) await seedBundledSample(dataSource);
  },
};
