import type { AdminCommand } from '../platform/admin/admin-command';
import { DATABASE_SCHEMA } from './database-schema';
import { runMigrations } from '../platform/database/migrate';

/** `npm run migration:run`: applies pending migrations (and the bundled sample when DATASET_SEED). */
export const MIGRATION_RUN_COMMAND: AdminCommand = {
  name: 'migration:run',
  async run({ dataSource, config, io }) {
    const applied = await runMigrations(dataSource);
    await DATABASE_SCHEMA.prepare(dataSource, config);
    const target = config.databaseUrl ? 'Postgres' : `PGlite in ${config.dataDir}`;
    io.out(
      applied.length
        ? `Applied ${applied.length} migration(s) to ${target}: ${applied.join(', ')}`
        : `No pending migrations (${target}).`,
    );
    return 0;
  },
};
