import { Logger } from '@nestjs/common';
import Bottleneck from 'bottleneck';
import type { Politeness } from '../register-definition';
import type { RedisHealth } from '../../platform/redis/redis-health.service';

/** Where a register endpoint's requests wait for their turn. */
export interface PolitenessQueue {
  schedule<T>(request: () => Promise<T>): Promise<T>;
  disconnect(): Promise<void>;
}

function settings(politeness: Politeness): Bottleneck.ConstructorOptions {
  return {
    maxConcurrent: politeness.maxConcurrent,
    minTime: politeness.minTimeMs,
    // A bounded queue: past it, new reads are refused at once (UpstreamError rate_limited)
    // and the caller falls back, instead of waiting behind hundreds of others.
    highWater: politeness.maxConcurrent * 25,
    strategy: Bottleneck.strategy.OVERFLOW,
    ...(politeness.quota
      ? {
          reservoir: politeness.quota.count,
          reservoirRefreshAmount: politeness.quota.count,
          reservoirRefreshInterval: politeness.quota.windowMs,
        }
      : {}),
  };
}

/** The limits of one endpoint in this process only (embedded default, or Redis down). */
export function localQueue(politeness: Politeness): PolitenessQueue {
  const limiter = new Bottleneck(settings(politeness));
  return { schedule: (request) => limiter.schedule(request), disconnect: () => limiter.disconnect() };
}

const logger = new Logger('Politeness');

/** A Redis error that means Redis cannot be reached (as opposed to an error reply). */
export function isConnectionFailure(err: Error): boolean {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  return /^E[A-Z]+$/.test(code) && code !== 'ERR'
    ? true
    : /Connection is closed|Stream isn't writeable|Command timed out|MaxRetriesPerRequest|Reached the max retries/i.test(
        err.message,
      );
}

/**
 * The limits of one endpoint shared by every process through Redis (Bottleneck's clustering:
 * one concurrency count, one spacing, one quota for all replicas), so that N replicas do not
 * press a register N times as hard. While Redis does not answer, each process keeps the limits
 * on its own (a local queue): a dead Redis never blocks register reads.
 */
export function sharedQueue(
  id: string,
  politeness: Politeness,
  health: RedisHealth,
  connection: () => Bottleneck.IORedisConnection,
): PolitenessQueue {
  const local = localQueue(politeness);
  let shared: Bottleneck | undefined;
  const clustered = () =>
    (shared ??= new Bottleneck({
      ...settings(politeness),
      id,
      datastore: 'ioredis',
      clearDatastore: false,
      // Keys of an endpoint nobody reads expire from Redis.
      timeout: 15 * 60_000,
      connection: connection(),
    }));
  return {
    schedule<T>(request: () => Promise<T>): Promise<T> {
      if (!health.isUp()) return local.schedule(request);
      return new Promise<T>((resolve, reject) => {
        let ran = false;
        let settled = false;
        const fallBack = (err: Error, redisDown = false) => {
          if (ran || settled) return;
          settled = true;
          if (redisDown || isConnectionFailure(err)) health.reportFailure(err);
          else {
            // The limiter's keys are gone (a restarted Redis, expiry): Bottleneck 2 does not
            // recognise Redis 7's "ERR …" error replies to re-create them, so a new limiter does.
            const stale = shared;
            shared = undefined;
            void Promise.resolve()
              .then(() => stale?.disconnect(false))
              .catch(() => undefined);
          }
          local.schedule(request).then(resolve, reject);
        };
        // Redis going away while this request waits for its turn: wait locally instead.
        // Not a sign of stale keys: the limiter stays (disconnecting it needs the Redis that is gone).
        const off = health.onDown(() => fallBack(new Error('Redis went away while waiting'), true));
        clustered()
          .schedule(() => {
            if (settled) return Promise.resolve(undefined as T); // its turn, given up: no request
            ran = true;
            return request();
          })
          .then(
            (value) => {
              if (settled) return;
              settled = true;
              resolve(value);
            },
            (err: Error) => {
              if (ran) {
                settled = true;
                return reject(err);
              }
              if (!(err instanceof Bottleneck.BottleneckError) || !/overflow|highWater|dropped/i.test(err.message)) {
                logger.debug(`shared politeness queue unavailable: ${err.message}`);
                return fallBack(err);
              }
              settled = true;
              reject(err);
            },
          )
          .finally(off);
      });
    },
    async disconnect() {
      await local.disconnect();
      await Promise.resolve(shared?.disconnect(false)).catch(() => undefined);
    },
  };
}
