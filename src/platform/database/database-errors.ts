/** The database could not be reached or could not run the query in time (a 503, not a bug). */
export class DatabaseUnavailableError extends Error {}

/**
 * SQLSTATEs of a query that could not run now: statement timeout or cancel (57014), lock
 * timeout (55P03), connection failures (08xxx), server shutting down (57P01–57P03), too many
 * connections (53300), deadlock (40P01).
 */
const UNAVAILABLE_STATES = /^(57014|55P03|08...|57P0[123]|53300|40P01)$/;
/** node-postgres's own messages for a pool wait, a client-side query timeout, a dead connection. */
const UNAVAILABLE_MESSAGES =
  /timeout exceeded when trying to connect|Query read timeout|Connection terminated|connection timeout|Client has encountered a connection error/i;
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);

/** Whether an error (a TypeORM QueryFailedError or the driver's own) means "the database cannot answer now". */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    if (e instanceof DatabaseUnavailableError) return true;
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_STATES.test(code) || UNAVAILABLE_CODES.has(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
    e = (e as { driverError?: unknown; cause?: unknown }).driverError ?? (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Postgres could not be reached or would not let us in: a sentence naming DATABASE_URL, not a
 * stack (what a process that cannot start, or an operator's command, says).
 */
export function databaseFailure(error: Error): string | undefined {
  const err = error as Error & { code?: string; address?: string; port?: number; hostname?: string };
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
