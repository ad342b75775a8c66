import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import { Extension, PGlite } from '@electric-sql/pglite';

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

/** One PGlite database per data directory (or per in-memory handle) in this process. */
export function openPGlite(dataDir: string | undefined): Promise<PGlite> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // pg_trgm only: loading btree_gin beside it makes PGlite 0.5 answer trigram queries wrongly.
  return PGlite.create({
    dataDir,
    extensions: { pg_trgm },
    // Same parsing as node-postgres is configured with (see data-source-options.ts).
    parsers: { [DATE_OID]: (v: string) => v, [INT8_OID]: (v: string) => Number(v) },
  });
}

class PGliteClient extends EventEmitter {
  constructor(private readonly db: PGlite) {
    super();
  }

  async query(sql: string | { text: string; values?: unknown[] }, params?: unknown[] | ((...a: unknown[]) => void)): Promise<PgLikeResult> {
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

  release(): void {
    /* returned through the done callback */
  }
}

/**
 * A node-postgres-shaped Pool over ONE PGlite session, for TypeORM's postgres driver.
 *
 * PGlite is a single database session. typeorm-pglite hands that session to every caller of
 * connect() at once, so two concurrent transactions interleave on it (one's ROLLBACK undoes the
 * other's work). Here connect() queues: a caller gets the session only after the previous one
 * released it through its done callback. (typeorm-pglite also keeps one global instance per
 * process, which rules out two databases in one test process; this pool takes its own.)
 */
export function createPGlitePoolClass(dbPromise: Promise<PGlite>) {
  return class PGlitePool extends EventEmitter {
    private readonly waiting: Array<() => void> = [];
    private busy = false;
    private client?: PGliteClient;

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
      const closing = dbPromise.then((db) => (db.closed ? undefined : db.close()));
      if (!callback) return closing;
      closing.then(() => callback(), (err: Error) => callback(err));
    }

    private async acquire(): Promise<{ client: PGliteClient; done: Done }> {
      if (this.busy) await new Promise<void>((resolve) => this.waiting.push(resolve));
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

    private handOver(): void {
      const next = this.waiting.shift();
      if (next) next();
      else this.busy = false;
    }
  };
}
