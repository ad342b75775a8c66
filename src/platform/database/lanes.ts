import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Which share of the database a piece of work may use. Public reads (`public`) have
 * connections of their own, so that requests stuck on a lock or a slow table elsewhere cannot
 * take the open read API down; other requests (`request`) wait for a connection only briefly
 * and answer 503 rather than hang; background work (no lane) waits as long as it must.
 */
export type DatabaseLane = 'public' | 'request';

const lanes = new AsyncLocalStorage<DatabaseLane>();

/** Runs `work` (and everything it starts) in a lane. */
export function inLane<T>(lane: DatabaseLane, work: () => T): T {
  return lanes.run(lane, work);
}

/** The lane of the work now running; undefined for background work. */
export function currentLane(): DatabaseLane | undefined {
  return lanes.getStore();
}
