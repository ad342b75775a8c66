import 'reflect-metadata';
import { adminSetup } from '../app/config';
import { runAdminCommand } from '../platform/admin/run-admin-command';
import { MIGRATION_RUN_COMMAND } from '../app/migration-run.command';
import { databaseFailure } from '../platform/database/database-errors';

/**
 * `npm run migration:run`: applies pending migrations to DATABASE_URL or the embedded
 * database. While the embedded service runs, it asks the service (which applied them at boot).
 */
async function main(): Promise<number> {
  return runAdminCommand(MIGRATION_RUN_COMMAND, process.argv.slice(2), adminSetup(process.env), {
    out: (l) => console.log(l),
    err: (l) => console.error(l),
  });
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`migration failed: ${databaseFailure(err) ?? err.message}`);
    process.exit(1);
  },
);
