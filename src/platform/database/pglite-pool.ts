import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Extension, PGlite } from '@electric-sql/pglite';
import { DatabaseUnavailableError } from './database-errors';
import { createFromTemplate, templateDump } from './embedded-template';
import { currentLane } from './lanes';

// The contrib entry points publish only ESM type declarations; the CommonJS build is there.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm') as { pg_trgm: Extension };

type Done = (err?: Error) => void;
type ConnectCallback = (err: Error | null, client: PGliteClient | null, done: Done) => void;

const DATE_OID = 1082;
const INT8_OID = 20;

/** What node-postgres returns and TypeORM reads: rows, rowCount and the command. */
interface PgLikeResult {
  rows: unknown[];
  rowCount: number;
  command: string;
}

export interface OpenPGliteOptions {
  /** Key of the prepared template an empty data directory is copied from (embedded-template.ts). */
  template?: string;
}

/**
 * Postgres settings for one process's own small database: a 16 MB buffer cache instead of
 * PGlite's 128 MB (the WASM heap only grows, so what the cache fills stays resident). Nothing
 * here relaxes durability (fsync, synchronous_commit): a committed row survives a kill -9.
 */
export const PGLITE_SETTINGS = [
  'shared_buffers=16MB',
  'work_mem=4MB',
  'maintenance_work_mem=32MB',
  'temp_buffers=2MB',
  'wal_buffers=512kB',
  // What a checkpoint keeps of the WAL for reuse (PGliteCheckpoints below makes the checkpoints).
  'max_wal_size=128MB',
  'min_wal_size=32MB',
];

/**
 * PGlite is Postgres in single-user mode: no checkpointer process, so nothing checkpoints as
 * WAL accumulates and `pg_wal` only grows — an embedded import of Companies House's 5 M rows
 * left 5.5 GB of WAL beside 3.3 GB of data, and months of probes and deliveries would do the
 * same slowly. The pool checkpoints instead: every `everyMs` after the session was used, it
 * looks at the WAL written since the last checkpoint and runs CHECKPOINT past `walBytes`
 * (16 MB of buffer cache to flush: about 10 ms), after which Postgres recycles the segments.
 */
export interface CheckpointPolicy {
  everyMs: number;
  walBytes: number;
}

export const PGLITE_CHECKPOINTS: CheckpointPolicy = { everyMs: 5_000, walBytes: 64 * 1024 * 1024 };

/**
 * PGlite's WASM Postgres compiled by V8's baseline compiler only: the optimising tier would
 * compile the whole module again, costing memory and start time (docs/benchmarks.md).
 */
let baselineOnly = false;
function compileWasmBaselineOnly(): void {
  if (baselineOnly) return;
  baselineOnly = true;
  setFlagsFromString('--liftoff-only');
}

/** One PGlite database per data directory (or per in-memory handle) in this process. */
export function openPGlite(dataDir: string | undefined, options: OpenPGliteOptions = {}): Promise<PGlite> {
  compileWasmBaselineOnly();
  if (dataDir) {
    mkdirSync(dirname(dataDir), { recursive: true });
    if (options.template) createFromTemplate(dataDir, options.template);
    mkdirSync(dataDir, { recursive: true });
  }
  // A database in memory starts from the template's dump.
  const dump = !dataDir && options.template ? templateDump(options.template) : null;
  // pg_trgm only: loading btree_gin beside it makes PGlite 0.5 answer trigram queries wrongly.
  return PGlite.create({
    dataDir,
    ...(dump ? { loadDataDir: new Blob([dump]) } : {}),
    extensions: { pg_trgm },
    postgresqlconf: PGLITE_SETTINGS,
    // Same parsing as node-postgres is configured with (see data-source-options.ts).
    parsers: { [DATE_OID]: (v: string) => v, [INT8_OID]: (v: string) => Number(v) },
  });
}

class PGliteClient extends EventEmitter {
  constructor(private readonly db: PGlite) {
    super();
  }

  async query(
    sql: string | { text: string; values?: unknown[] },
    params?: unknown[] | ((...a: unknown[]) => void),
  ): Promise<PgLikeResult> {
    const text = typeof sql === 'string' ? sql : sql.text;
    const values = Array.isArray(params) ? params : typeof sql === 'object' ? sql.values : undefined;
    const command = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? '';
    if (values && values.length > 0) {
      const r = await this.db.query(text, values);
      return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length, command };
    }
    // Without parameters a string may hold several statements (migrations): run them all.
    const results = await this.db.exec(text);
    const last = results[results.length - 1];
    return { rows: last?.rows ?? [], rowCount: last?.affectedRows ?? last?.rows.length ?? 0, command };
  }

  /** COPY … FROM '/dev/blob' with `data` as the file: PGlite's way in for COPY FROM. */
  async copyFrom(sql: string, data: Blob): Promise<void> {
    await this.db.query(sql, [], { blob: data });
  }

  release(): void {
    /* returned through the done callback */
  }
}

/** The session a PGlite query runner holds (its `databaseConnection`). */
export type PGliteSession = Pick<PGliteClient, 'query' | 'copyFrom'>;

/**
 * A node-postgres-shaped Pool over ONE PGlite session, for TypeORM's postgres driver.
 *
 * PGlite is a single database session. typeorm-pglite hands that session to every caller of
 * connect() at once, so two concurrent transactions interleave on it (one's ROLLBACK undoes the
 * other's work). Here connect() queues: a caller gets the session only after the previous one
 * released it through its done callback. (typeorm-pglite also keeps one global instance per
 * process, which rules out two databases in one test process; this pool takes its own.)
 */
export function createPGlitePoolClass(
  dbPromise: Promise<PGlite>,
  onEnd?: () => void,
  checkpoints: CheckpointPolicy = PGLITE_CHECKPOINTS,
  requestWaitMs = Infinity,
) {
  return class PGlitePool extends EventEmitter {
    /** Who waits for the session: public reads are handed it first; a request gives up after requestWaitMs. */
    private readonly waiting: Array<{ resolve: () => void; isPublic: boolean }> = [];
    private busy = false;
    private client?: PGliteClient;
    /** Used since the last look at the WAL. */
    private used = false;
    private checkpointTimer?: NodeJS.Timeout;
    private ended = false;

    constructor(_options?: unknown) {
      super();
    }

    get totalCount(): number {
      return 1;
    }

    get idleCount(): number {
      return this.busy ? 0 : 1;
    }

    get waitingCount(): number {
      return this.waiting.length;
    }

    connect(callback?: ConnectCallback): Promise<PGliteClient> | void {
      const acquired = this.acquire();
      if (!callback) return acquired.then(({ client }) => client);
      acquired.then(
        ({ client, done }) => callback(null, client, done),
        (err: Error) => callback(err, null, () => undefined),
      );
    }

    async query(sql: string, params?: unknown[]): Promise<PgLikeResult> {
      const { client, done } = await this.acquire();
      try {
        return await client.query(sql, params);
      } finally {
        done();
      }
    }

    end(callback?: (err?: Error) => void): Promise<void> | void {
      this.ended = true;
      clearInterval(this.checkpointTimer);
      const closing = dbPromise.then((db) => (db.closed ? undefined : db.close())).finally(() => onEnd?.());
      if (!callback) return closing;
      closing.then(
        () => callback(),
        (err: Error) => callback(err),
      );
    }

    /** Checkpoints when the WAL written since the last checkpoint passes the policy's bound. */
    async checkpointIfDue(): Promise<boolean> {
      if (this.ended) return false;
      const { client, done } = await this.acquire(false);
      try {
        const { rows } = await client.query(
          `SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), (SELECT redo_lsn FROM pg_control_checkpoint()))::float8 AS bytes`,
          [],
        );
        if (Number((rows[0] as { bytes: number }).bytes) < checkpoints.walBytes) return false;
        await client.query('CHECKPOINT');
        return true;
      } finally {
        done();
      }
    }

    private watchWal(): void {
      if (this.checkpointTimer || this.ended) return;
      this.checkpointTimer = setInterval(() => {
        if (!this.used || this.ended) return;
        this.used = false;
        // A closed database or a failed look: the next use looks again.
        this.checkpointIfDue().catch(() => undefined);
      }, checkpoints.everyMs);
      this.checkpointTimer.unref();
    }

    private async acquire(use = true): Promise<{ client: PGliteClient; done: Done }> {
      if (use) {
        this.used = true;
        this.watchWal();
      }
      if (this.busy) await this.waitForSession();
      this.busy = true;
      try {
        this.client ??= new PGliteClient(await dbPromise);
      } catch (err) {
        this.handOver();
        throw err;
      }
      let released = false;
      const done: Done = () => {
        if (released) return;
        released = true;
        this.handOver();
      };
      return { client: this.client, done };
    }

    private waitForSession(): Promise<void> {
      const lane = currentLane();
      return new Promise<void>((resolve, reject) => {
        const waiter = { resolve, isPublic: lane === 'public' };
        this.waiting.push(waiter);
        if (!lane || !Number.isFinite(requestWaitMs)) return;
        // One session: a request that cannot have it soon is answered 503 rather than held.
        const timer = setTimeout(() => {
          const i = this.waiting.indexOf(waiter);
          if (i < 0) return;
          this.waiting.splice(i, 1);
          reject(new DatabaseUnavailableError(`the embedded database was busy for ${requestWaitMs} ms`));
        }, requestWaitMs);
        waiter.resolve = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }

    private handOver(): void {
      const i = this.waiting.findIndex((w) => w.isPublic);
      const [next] = this.waiting.splice(i >= 0 ? i : 0, 1);
      if (next) next.resolve();
      else this.busy = false;
    }
  };
}
