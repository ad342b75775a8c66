import { DataDirLock, DataDirLockedError, SERVICE_COMMAND } from '../platform/database/data-dir-lock';
import type { AppConfig } from '../platform/config/app-config';

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
  const database = databaseFailure(err as SystemError);
  if (database) return `Not started: ${database}`;
  const port = portFailure(err as SystemError, config);
  if (port) return `Not started: ${port}`;
  return err;
}

/** What Node's and pg's errors carry besides the message. */
interface SystemError extends Error {
  code?: string;
  syscall?: string;
  address?: string;
  port?: number;
  hostname?: string;
}

/** Postgres could not be reached or would not let us in: a sentence naming DATABASE_URL, not a stack. */
function databaseFailure(err: SystemError): string | undefined {
  const { code } = err;
  if (code === 'ECONNREFUSED' || code === 'ETIMEDOUT' || code === 'EHOSTUNREACH' || code === 'ECONNRESET')
    return `no database answers at ${err.address ?? 'the host'}${err.port ? `:${err.port}` : ''} (${code}). Start Postgres there, or point DATABASE_URL at one that runs.`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `the database host ${err.hostname ?? ''} cannot be resolved (${code}). Check the host in DATABASE_URL.`;
  // SQLSTATE 3D000: no such database; 28P01 / 28000: the login was refused.
  if (code === '3D000') return `${err.message}. Create it (createdb), or point DATABASE_URL at one that exists.`;
  if (code === '28P01' || code === '28000')
    return `Postgres refused the login: ${err.message}. Check the user and password in DATABASE_URL.`;
  return undefined;
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
