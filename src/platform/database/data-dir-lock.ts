import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join, relative, resolve } from 'node:path';

/** The lock file inside DATA_DIR: whoever created it owns the embedded database. */
export const LOCK_FILE = 'registry-lookup.lock';
/** The running service's admin socket inside DATA_DIR (owner-only). */
export const ADMIN_SOCKET = 'admin.sock';
/** What the all-in-one service and the api / worker processes write as their command. */
export const SERVICE_COMMAND = 'service';

/** What the lock file says about the process that holds the directory. */
export interface LockHolder {
  pid: number;
  /** The process's start, as the kernel counts it (Linux /proc/<pid>/stat field 22); tells a reused pid apart. */
  processStart: string | null;
  hostname: string;
  /** `service`, or the CLI command (`dataset:import`, `migration:run`…). */
  command: string;
  startedAt: string;
  /** The admin socket the holder listens on, once it does (the service only). */
  socket: string | null;
}

/** Another live process holds the data directory. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(`${describeHolder(holder, dataDir)}. Only one process may open the embedded database at a time.`);
    this.name = 'DataDirLockedError';
  }
}

/** "The service (pid 1234, started …) is running on ./data" / "npm run dataset:import (pid …) is using ./data". */
export function describeHolder(holder: LockHolder, dataDir: string): string {
  const where = displayPath(dataDir);
  const since = `pid ${holder.pid}, started ${holder.startedAt}`;
  // A lock file being written this instant: its process is not known yet.
  if (holder.pid === 0) return `Another process is taking ${where} this very moment`;
  return holder.command === SERVICE_COMMAND
    ? `The service (${since}) is running on ${where}`
    : `npm run ${holder.command} (${since}) is using ${where}`;
}

export function displayPath(dir: string): string {
  const rel = relative(process.cwd(), dir);
  return rel === '' ? '.' : rel.startsWith('..') ? dir : `./${rel}`;
}

/** The fields of /proc/<pid>/stat after the command name (Linux); null elsewhere or when it is gone. */
function procStat(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** Start time of a process (field 22 of its stat). */
function processStart(pid: number): string | null {
  return procStat(pid)?.[19] ?? null;
}

function isAlive(holder: LockHolder): boolean {
  if (holder.hostname !== hostname()) return true; // a shared volume: we cannot tell, so assume it is held
  if (holder.pid === process.pid) return false; // our pid, but not our lock: a previous life (a container's pid 1)
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  // A zombie (killed, not yet reaped by its parent) holds nothing: its files are closed.
  const stat = procStat(holder.pid);
  if (stat?.[0] === 'Z' || stat?.[0] === 'X') return false;
  // The pid exists: the same process only if it started when the holder did.
  const now = stat?.[19] ?? null;
  return holder.processStart === null || now === null || now === holder.processStart;
}

function readHolder(file: string): LockHolder | 'unreadable' | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const parsed = JSON.parse(text) as LockHolder;
    return typeof parsed.pid === 'number' ? parsed : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

/**
 * The live process holding `dataDir`, or null when the directory is free (no lock file, or
 * one left by a process that is gone: kill -9, a crash, a power cut).
 */
export function findLockHolder(dataDir: string): LockHolder | null {
  const file = join(resolve(dataDir), LOCK_FILE);
  const holder = readHolder(file);
  if (holder === null) return null;
  if (holder === 'unreadable') {
    // Being written this very moment (a lock file is complete within microseconds) or damaged.
    return youngerThan(file, 2_000)
      ? { pid: 0, processStart: null, hostname: hostname(), command: 'unknown', startedAt: 'just now', socket: null }
      : null;
  }
  return isAlive(holder) ? holder : null;
}

function youngerThan(file: string, ms: number): boolean {
  try {
    return Date.now() - statSync(file).mtimeMs < ms;
  } catch {
    return false;
  }
}

/** The lock this process holds on a data directory. */
export class DataDirLock {
  /** The locks this process holds, by directory: taking one it holds again returns it. */
  private static readonly held = new Map<string, DataDirLock>();
  private released = false;
  private readonly onExit = () => this.release();

  private constructor(
    readonly dataDir: string,
    private holder: LockHolder,
  ) {
    // Released on any exit of the process that Node runs handlers for; kill -9 leaves a stale
    // file that the next process recognises as such (its pid is gone).
    process.once('exit', this.onExit);
  }

  get file(): string {
    return join(this.dataDir, LOCK_FILE);
  }

  /**
   * Takes the data directory for this process (O_EXCL create of the lock file), removing a
   * stale lock first. Throws DataDirLockedError when a live process holds it.
   */
  static acquire(dataDir: string, command: string): DataDirLock {
    const dir = resolve(dataDir);
    const mine = DataDirLock.held.get(dir);
    if (mine && !mine.released) return mine;
    mkdirSync(dir, { recursive: true });
    const file = join(dir, LOCK_FILE);
    const holder: LockHolder = {
      pid: process.pid,
      processStart: processStart(process.pid),
      hostname: hostname(),
      command,
      startedAt: new Date().toISOString(),
      socket: null,
    };
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        const fd = openSync(file, 'wx', 0o600);
        try {
          writeFileSync(fd, JSON.stringify(holder));
        } finally {
          closeSync(fd);
        }
        const lock = new DataDirLock(dir, holder);
        DataDirLock.held.set(dir, lock);
        return lock;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const live = findLockHolder(dir);
      if (live) throw new DataDirLockedError(dir, live);
      removeStaleLock(dir);
    }
    throw new Error(`could not take the lock ${file}: it keeps being created and removed by other processes`);
  }

  /** Records the admin socket in the lock file, so that CLI commands find the service. */
  announceSocket(socket: string | null): void {
    if (this.released) return;
    this.holder = { ...this.holder, socket };
    // Replaced by rename: the lock file exists at every instant, and readers never see half of it.
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.holder), { mode: 0o600 });
    renameSync(tmp, this.file);
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    DataDirLock.held.delete(this.dataDir);
    process.removeListener('exit', this.onExit);
    const current = readHolder(this.file);
    if (
      current !== null &&
      current !== 'unreadable' &&
      current.pid === this.holder.pid &&
      current.startedAt === this.holder.startedAt
    ) {
      try {
        unlinkSync(this.file);
      } catch {
        /* already gone */
      }
    }
  }
}

/**
 * Removes a lock file left by a dead process. Two processes may find the same stale lock at
 * once: a takeover directory (mkdir is atomic) lets one of them remove it, so that neither
 * deletes the fresh lock the other has just created.
 */
function removeStaleLock(dir: string): void {
  const guard = join(dir, `${LOCK_FILE}.takeover`);
  try {
    mkdirSync(guard);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Someone else is taking over; a guard older than a few seconds was left by a killed process.
    if (!youngerThan(guard, 5_000)) {
      try {
        rmdirSync(guard);
      } catch {
        /* removed by another */
      }
    }
    return;
  }
  try {
    // Checked again under the guard: the lock may have been replaced by a live one meanwhile.
    if (findLockHolder(dir) === null) {
      try {
        unlinkSync(join(dir, LOCK_FILE));
      } catch {
        /* already gone */
      }
    }
  } finally {
    rmdirSync(guard);
  }
}
