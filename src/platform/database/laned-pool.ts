import { EventEmitter } from 'node:events';
import * as pg from 'pg';
import { currentLane } from './lanes';

/** The settings of one share of the connections (node-postgres Pool and Client options). */
export type PoolShare = pg.PoolConfig & Record<string, unknown>;

type Release = (err?: Error | boolean) => void;
type ConnectCallback = (err: Error | undefined, client: pg.PoolClient | undefined, release: Release) => void;

/** Clients whose last query timed out on our side: the answer may still come, so the connection is not reused. */
const broken = new WeakSet<pg.PoolClient>();
const watched = new WeakSet<pg.PoolClient>();

/**
 * node-postgres with two pools behind one Pool, for TypeORM's postgres driver (its `driver`
 * option): work in the `public` lane (lanes.ts) takes connections from a reserved share, any
 * other work from the general one. A client whose query timed out client-side (the network
 * stalled) is destroyed on release instead of going back to the pool with the query pending.
 */
export function lanedPg(publicShare: PoolShare): typeof pg {
  class LanedPool extends EventEmitter {
    private readonly general: pg.Pool;
    private readonly reserved: pg.Pool;

    constructor(options: pg.PoolConfig) {
      super();
      this.general = new pg.Pool(options);
      this.reserved = new pg.Pool({ ...options, ...publicShare });
      for (const pool of [this.general, this.reserved]) pool.on('error', (err) => this.emit('error', err));
    }

    get totalCount(): number {
      return this.general.totalCount + this.reserved.totalCount;
    }

    get idleCount(): number {
      return this.general.idleCount + this.reserved.idleCount;
    }

    get waitingCount(): number {
      return this.general.waitingCount + this.reserved.waitingCount;
    }

    connect(callback: ConnectCallback): void {
      const pool = currentLane() === 'public' ? this.reserved : this.general;
      pool.connect((err, client, release) => {
        if (err || !client) return callback(err ?? new Error('no client'), undefined, () => undefined);
        watch(client);
        callback(undefined, client, (releaseErr) => release(releaseErr || (broken.has(client) ? true : undefined)));
      });
    }

    /** A statement on a connection of the lane's share, checked out and released around it (pg's Pool.query). */
    query(...args: unknown[]): unknown {
      const pool = currentLane() === 'public' ? this.reserved : this.general;
      return (pool.query as (...a: unknown[]) => unknown).apply(pool, args);
    }

    end(callback?: (err?: Error) => void): Promise<void> | void {
      const ending = Promise.all([this.general.end(), this.reserved.end()]).then(() => undefined);
      if (!callback) return ending;
      ending.then(
        () => callback(),
        (err: Error) => callback(err),
      );
    }
  }
  return { ...pg, Pool: LanedPool as unknown as typeof pg.Pool };
}

/** Marks the client broken when one of its queries times out client-side (TypeORM queries with a callback). */
function watch(client: pg.PoolClient): void {
  if (watched.has(client)) return;
  watched.add(client);
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last] as (err: Error | null, result?: unknown) => void;
      args[last] = (err: Error | null, result?: unknown) => {
        if (err && /Query read timeout/.test(err.message)) broken.add(client);
        callback(err, result);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result instanceof Promise)
      result.catch((err: Error) => {
        if (/Query read timeout/.test(err.message)) broken.add(client);
      });
    return result;
  };
}
