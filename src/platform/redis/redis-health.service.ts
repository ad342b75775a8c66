import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import Redis, { RedisOptions } from 'ioredis';
import { AppConfig } from '../config/app-config';

export type RedisState = 'starting' | 'up' | 'down';

/** While Redis is down, how often one PING checks whether it is back (the breaker's half-open try). */
const PROBE_EVERY_MS = 1_000;

/**
 * Options of every Redis connection: fail fast rather than queue. No offline queue (a command
 * while disconnected fails at once), a short connect timeout, one retry per command, and
 * reconnection with a capped backoff.
 */
export function failFastOptions(overrides: RedisOptions = {}): RedisOptions {
  return {
    enableOfflineQueue: false,
    connectTimeout: 1_000,
    commandTimeout: 1_000,
    maxRetriesPerRequest: 1,
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 5), 2_000),
    ...overrides,
  };
}

/**
 * The one view of Redis every Redis user consults (rate-limit storage, Bull, readiness): a
 * breaker. Any connection error opens it at once; while it is open nothing waits on Redis
 * (rate limits count in the process, jobs are refused at once) and one PING a second checks
 * whether Redis is back, which closes it. One log line when Redis goes away, one when it is
 * back, whatever the number of connections and retries in between.
 */
@Injectable()
export class RedisHealth implements OnApplicationShutdown {
  private readonly logger = new Logger('Redis');
  private readonly clients = new Set<Redis>();
  private readonly probeClient?: Redis;
  private stateValue: RedisState = 'starting';
  private downSince?: Date;
  private probing?: NodeJS.Timeout;
  private closed = false;
  private readonly downListeners = new Set<() => void>();

  constructor(private readonly config: AppConfig) {
    if (!config.redisUrl) return;
    // Up once a connection is ready (its 'ready' event runs a PING); down at the first error.
    this.probeClient = this.createClient('health');
  }

  get state(): RedisState {
    return this.stateValue;
  }

  isUp(): boolean {
    return this.stateValue === 'up';
  }

  get since(): Date | undefined {
    return this.downSince;
  }

  /**
   * A connection to REDIS_URL whose failures feed the breaker (and are never logged one by one).
   * `overrides` for Bull's blocking connections, which must wait (maxRetriesPerRequest null).
   */
  createClient(purpose: string, overrides: RedisOptions = {}): Redis {
    if (!this.config.redisUrl) throw new Error('REDIS_URL is not set');
    const client = new Redis(this.config.redisUrl, {
      connectionName: `registry-lookup:${purpose}`,
      ...failFastOptions(overrides),
    });
    client.on('error', (err: Error) => this.reportFailure(err));
    // A server that shuts down closes the connection without an error event.
    client.on('close', () => {
      if (!(client as unknown as { manuallyClosing?: boolean }).manuallyClosing && client.status !== 'end')
        this.reportFailure(new Error('connection closed'));
    });
    client.on('ready', () => void this.probe());
    // Bull re-opens its blocking connection when a pending BRPOPLPUSH is cut at shutdown.
    client.on('connect', () => {
      if (this.closed) client.disconnect(false);
    });
    this.clients.add(client);
    return client;
  }

  /** A command failed or timed out: Redis counts as down until a PING succeeds. */
  reportFailure(err: Error): void {
    if (this.closed || this.stateValue === 'down') return;
    // A command on a connection that is not ready yet fails at once (no offline queue): at boot,
    // or on one connection still reconnecting after the health connection found Redis back. That
    // is not Redis failing: a Redis that really is gone fails or closes the connection itself,
    // which reports here with its own error.
    if (isNotConnectedYet(err)) return;
    const wasUp = this.stateValue === 'up';
    this.stateValue = 'down';
    this.downSince = new Date();
    this.logger.warn(
      `Redis ${wasUp ? 'went away' : 'does not answer'} (${describe(err)}): rate limits are counted in this process (each replica enforces the limit itself) and jobs are not enqueued until it is back`,
    );
    this.scheduleProbe();
    for (const listener of [...this.downListeners]) listener();
  }

  /** Called when Redis goes down (requests waiting on Redis give up and go local). */
  onDown(listener: () => void): () => void {
    this.downListeners.add(listener);
    return () => this.downListeners.delete(listener);
  }

  /** PINGs through the health connection with the fail-fast timeout. */
  async ping(): Promise<void> {
    if (!this.probeClient) return;
    await this.probeClient.ping();
  }

  onApplicationShutdown(): void {
    this.closed = true;
    clearTimeout(this.probing);
    for (const client of this.clients) client.disconnect(false);
  }

  private async probe(): Promise<void> {
    if (this.closed || this.stateValue === 'up') return;
    try {
      await this.ping();
    } catch (err) {
      if (this.stateValue === 'starting') this.reportFailure(err as Error);
      else this.scheduleProbe();
      return;
    }
    if (this.stateValue === 'down') {
      const seconds = Math.round((Date.now() - (this.downSince?.getTime() ?? Date.now())) / 1000);
      this.logger.log(`Redis is back after ${seconds} s: rate limits are shared again and jobs are enqueued`);
    }
    this.stateValue = 'up';
    this.downSince = undefined;
    clearTimeout(this.probing);
    this.probing = undefined;
  }

  private scheduleProbe(): void {
    if (this.closed || this.probing) return;
    this.probing = setTimeout(() => {
      this.probing = undefined;
      void this.probe();
    }, PROBE_EVERY_MS);
    this.probing.unref();
  }
}

function isNotConnectedYet(err: Error): boolean {
  return /Stream isn't writeable/.test(err.message);
}

function describe(err: Error): string {
  const code = (err as NodeJS.ErrnoException).code;
  return code ? `${code}: ${err.message}` : err.message;
}
