import { Injectable, OnApplicationShutdown, Optional } from '@nestjs/common';
import axios, { AxiosAdapter, AxiosInstance, CanceledError, getAdapter } from 'axios';
import axiosRetry, { isNetworkError } from 'axios-retry';
import Bottleneck from 'bottleneck';
import { Readable } from 'node:stream';
import { AppConfig } from '../../platform/config/app-config';
import { storableJson } from '../response-body';
import { holdReceived } from './hold-received';
import { RegisterBreaker, RegisterUnreachableError } from './register-breaker';
import { isConnectionFailure, localQueue, PolitenessQueue, sharedQueue } from './politeness';
import { RedisHealth } from '../../platform/redis/redis-health.service';
import { RegistersConfig } from '../register-config';
import { type SourceId, sourceEndpoints } from '../source-id';

export interface RegisterClientOptions {
  /** Overrides the configured register timeout (probes use their own). */
  timeoutMs?: number;
  /** Retries of idempotent requests on network errors, 5xx and 429; 0 to disable. */
  retries?: number;
}

/**
 * The one way to reach a register: an axios instance on the configured base URL with a
 * timeout, a User-Agent naming the service, the register's breaker, politeness from the
 * register table (concurrency, spacing, published quotas; one limiter per register endpoint,
 * shared by every process through Redis where REDIS_URL is set) and safe retries of
 * idempotent requests.
 */
@Injectable()
export class HttpClientFactory implements OnApplicationShutdown {
  private readonly limiters = new Map<string, PolitenessQueue>();
  private connection?: Bottleneck.IORedisConnection;
  private readonly defaultAdapter: AxiosAdapter = getAdapter('http');

  /** Without a breaker (a connector tested alone), every request goes out. */
  private readonly breaker: Pick<RegisterBreaker, 'admit' | 'record' | 'abandon' | 'onOpen'>;

  constructor(
    private readonly config: AppConfig,
    private readonly registers: RegistersConfig,
    @Optional() breaker?: RegisterBreaker,
    @Optional() private readonly redis?: RedisHealth,
  ) {
    this.breaker = breaker ?? {
      admit: () => ({ trial: false }),
      record: () => undefined,
      abandon: () => undefined,
      onOpen: () => () => undefined,
    };
  }

  /** A client of a register (by country), or of the LEI index (`'LEI'`, REGISTER_LEI_<PURPOSE>_URL). */
  forRegister(country: SourceId, purpose: string, options: RegisterClientOptions = {}): AxiosInstance {
    const baseURL = this.registers.urlsOf(country)[purpose];
    if (!baseURL) throw new Error(`register ${country} has no ${purpose} endpoint in the register table`);
    const limiter = this.limiter(country, purpose);
    const adapter = this.defaultAdapter;
    const client = axios.create({
      baseURL,
      timeout: options.timeoutMs ?? this.config.registerTimeoutMs,
      headers: { 'User-Agent': this.config.userAgent, Accept: 'application/json' },
      maxRedirects: 3,
      maxContentLength: 50 * 1024 * 1024,
      // Every request, including retries, asks the register's breaker, then waits for its turn.
      // A streamed body is read at once: the turn's end is timers away, and a drop meanwhile lost what had come.
      adapter: (config) =>
        this.send(
          country,
          limiter,
          () =>
            adapter(config).then((response) => {
              if (config.responseType === 'stream' && response.data instanceof Readable)
                response.data = holdReceived(response.data);
              return response;
            }),
          config.signal,
        ),
    });
    client.interceptors.response.use((response) => {
      response.data = storableJson(response.data);
      return response;
    });
    const retries = options.retries ?? 1;
    if (retries > 0) {
      axiosRetry(client, {
        retries,
        shouldResetTimeout: true,
        retryDelay: (count, error) => {
          const retryAfter = Number(error.response?.headers?.['retry-after']);
          if (Number.isFinite(retryAfter) && retryAfter >= 0) return Math.min(retryAfter * 1000, 5_000);
          return 200 * 2 ** (count - 1);
        },
        // Only idempotent methods, only failures that another try can fix.
        retryCondition: (error) => {
          const method = (error.config?.method ?? 'get').toLowerCase();
          const idempotent =
            method === 'get' || method === 'head' || error.config?.headers?.['X-Idempotent'] === 'true';
          if (!idempotent) return false;
          if (error.code === 'ECONNABORTED') return false; // a timeout already spent the caller's budget
          const status = error.response?.status;
          return isNetworkError(error) || status === 429 || (status !== undefined && status >= 500);
        },
      });
    }
    return client;
  }

  /**
   * One request through the breaker and the politeness queue. A request still waiting for its
   * turn when the breaker opens gives up at once instead of waiting to fail.
   */
  private send<T>(
    country: SourceId,
    limiter: PolitenessQueue,
    request: () => Promise<T>,
    signal?: { aborted?: boolean },
  ): Promise<T> {
    const { trial } = this.breaker.admit(country);
    return new Promise<T>((resolve, reject) => {
      let started = false;
      let abandoned = false;
      const stopWaiting = this.breaker.onOpen(country, (open) => {
        if (started) return;
        abandoned = true;
        reject(new RegisterUnreachableError(country, open));
      });
      limiter
        .schedule(async () => {
          started = true;
          stopWaiting();
          // Given up while waiting (the breaker opened, or the caller's deadline passed): its turn passes without a request.
          if (abandoned) throw new Error('abandoned');
          if (signal?.aborted) throw new CanceledError('given up by the caller while waiting for its turn');
          try {
            const response = await request();
            this.breaker.record(country, undefined, trial);
            return response;
          } catch (err) {
            // Aborted by its caller (a deadline shorter than the register timeout): no verdict on the register.
            if (signal?.aborted) this.breaker.abandon(country, trial);
            else this.breaker.record(country, err, trial);
            throw err;
          }
        })
        .then(resolve, reject)
        .finally(stopWaiting);
    });
  }

  onApplicationShutdown(): void {
    for (const limiter of this.limiters.values()) void limiter.disconnect();
    this.limiters.clear();
    void this.connection?.disconnect(false);
  }

  private limiter(country: SourceId, purpose: string): PolitenessQueue {
    const key = `${country}:${purpose}`;
    let queue = this.limiters.get(key);
    if (!queue) {
      const politeness = sourceEndpoints(country)[purpose].politeness;
      queue =
        this.config.redisUrl && this.redis
          ? sharedQueue(`${this.config.redisKeyPrefix}:politeness:${key}`, politeness, this.redis, () =>
              this.redisConnection(),
            )
          : localQueue(politeness);
      this.limiters.set(key, queue);
    }
    return queue;
  }

  /** One Redis connection (and its subscriber) for every shared limiter of this process. */
  private redisConnection(): Bottleneck.IORedisConnection {
    if (!this.connection) {
      const client = this.redis!.createClient('politeness', { enableOfflineQueue: true, commandTimeout: 2_000 });
      this.connection = new Bottleneck.IORedisConnection({ client });
      this.connection.on('error', (err: Error) => {
        if (isConnectionFailure(err)) this.redis!.reportFailure(err);
      });
    }
    return this.connection;
  }
}
