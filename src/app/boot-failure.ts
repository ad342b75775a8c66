import { DataDirLock, DataDirLockedError, SERVICE_COMMAND } from '../platform/database/data-dir-lock';
import type { AppConfig } from '../platform/config/app-config';

/** What a process that could not boot prints: one sentence for what an operator can fix, the error otherwise. */
export function bootFailure(err: Error): string | Error {
  if (err.message.startsWith('Invalid configuration')) return err.message;
  if (err instanceof DataDirLockedError) {
    const what =
      err.holder.command === SERVICE_COMMAND || err.holder.pid === 0
        ? 'Stop it before starting another here, or give this one its own DATA_DIR (several processes on one database need DATABASE_URL: Postgres).'
        : `Wait until npm run ${err.holder.command} has finished, then start the service.`;
    return `Not started: ${err.message} ${what}`;
  }
  return err;
}

/**
 * Takes the embedded data directory before Nest starts: a process that loses a start race
 * then stops with the sentence of bootFailure, never inside Nest (which logs a stack trace).
 * The database module takes the same lock again, which this process already holds.
 */
export function holdDataDir(config: AppConfig): void {
  if (config.databaseUrl || config.dataDir === 'memory://') return;
  DataDirLock.acquire(config.dataDir, SERVICE_COMMAND);
}
