import { resolve } from 'node:path';
import { DataDirLockedError, findLockHolder, SERVICE_COMMAND } from '../platform/database/data-dir-lock';
import type { AppConfig } from '../platform/config/app-config';

/** What a process that could not boot prints: one sentence for what an operator can fix, the error otherwise. */
export function bootFailure(err: Error): string | Error {
  if (err.message.startsWith('Invalid configuration')) return err.message;
  if (err instanceof DataDirLockedError) {
    const what =
      err.holder.command === SERVICE_COMMAND
        ? 'Stop it before starting another here, or give this one its own DATA_DIR (several processes on one database need DATABASE_URL: Postgres).'
        : `Wait until npm run ${err.holder.command} has finished, then start the service.`;
    return `Not started: ${err.message} ${what}`;
  }
  return err;
}

/** Stops before Nest starts (and logs its own stack trace) when another process holds the embedded data directory. */
export function assertDataDirFree(config: AppConfig): void {
  if (config.databaseUrl || config.dataDir === 'memory://') return;
  const holder = findLockHolder(config.dataDir);
  if (holder) throw new DataDirLockedError(resolve(config.dataDir), holder);
}
