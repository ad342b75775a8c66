import { DataDirLock, DataDirLockedError, SERVICE_COMMAND } from '../platform/database/data-dir-lock';
import type { AppConfig } from '../platform/config/app-config';
import { databaseFailure } from '../platform/database/database-errors';

/**
 * What a process that could not boot prints: one sentence for what an operator can fix, the
 * error otherwise. `config` is there once the configuration was read: it names a port's variable.
 */
export function bootFailure(err: Error, config?: AppConfig): string | Error {
  if (err.message.startsWith('Invalid configuration')) return err.message;
  if (err instanceof DataDirLockedError) {
    const what =
      err.holder.command === SERVICE_COMMAND || err.holder.pid === 0
        ? 'Stop it before starting another here, or give this one its own DATA_DIR (several processes on one database need DATABASE_URL: Postgres).'
        : `Wait until npm run ${err.holder.command} has finished, then start the service.`;
    return `Not started: ${err.message} ${what}`;
  }
  const database = databaseFailure(err);
  if (database) return `Not started: ${database}`;
  const port = portFailure(err as SystemError, config);
  if (port) return `Not started: ${port}`;
  return err;
}

/** What Node's errors carry besides the message. */
interface SystemError extends Error {
  code?: string;
  syscall?: string;
  address?: string;
  port?: number;
}

/** The public or the metrics port could not be opened: which variable's, and what to do. */
function portFailure(err: SystemError, config?: AppConfig): string | undefined {
  if (err.syscall !== 'listen' || (err.code !== 'EADDRINUSE' && err.code !== 'EACCES')) return undefined;
  const variable = err.port === config?.port ? 'PORT' : err.port === config?.metricsPort ? 'METRICS_PORT' : undefined;
  const port = `${variable ?? 'port'} ${err.port} on ${err.address ?? config?.host}`;
  const setting = variable ?? 'PORT or METRICS_PORT';
  return err.code === 'EADDRINUSE'
    ? `${port} is already in use by another process (EADDRINUSE). Stop that process, or set ${setting} to a free port.`
    : `${port} may not be opened by this user (EACCES): ports below 1024 need privileges. Set ${setting} to 1024 or above.`;
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
