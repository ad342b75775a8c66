import 'reflect-metadata';
import { adminSetup } from '../app/config';
import { ADMIN_COMMAND, ADMIN_USAGE } from '../events/accounts/admin/admin-commands';
import { runAdminCommand } from '../platform/admin/run-admin-command';
import { databaseFailure } from '../platform/database/database-errors';

/**
 * `npm run admin -- access-requests list | approve ID | reject ID --reason "…"`. Runs where
 * the database is: on Postgres here; on the embedded default here when the data directory is
 * free, or inside the running service over its admin socket (the directory is never opened
 * twice), or not at all with a sentence saying who holds it.
 */
async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.length === 0 || argv.includes('--help')) {
    console.log(ADMIN_USAGE);
    return argv.length === 0 ? 2 : 0;
  }
  return runAdminCommand(ADMIN_COMMAND, argv, adminSetup(process.env), {
    out: (l) => console.log(l),
    err: (l) => console.error(l),
  });
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(
      err.message.startsWith('Invalid configuration')
        ? err.message
        : `admin command failed: ${databaseFailure(err) ?? err.message}`,
    );
    process.exit(1);
  },
);
