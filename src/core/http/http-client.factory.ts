import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import axios, { AxiosAdapter, AxiosInstance, getAdapter } from 'axios';
import axiosRetry, { isNetworkError } from 'axios-retry';
import Bottleneck from 'bottleneck';
import { AppConfig } from '../config/app-config';
import { CountryCode, findRegister } from '../../registers/register-table';

export interface RegisterClientOptions {
  /** Overrides the configured register timeout (probes use their own). */
  timeoutMs?: number;
  /** Retries of idempotent requests on network errors, 5xx and 429; 0 to disable. */
  retries?: number;
}

/**
 * The one way to reach a register: an axios instance on the configured base URL with a
 * timeout, a User-Agent naming the service, politeness from the register table (concurrency,
 * spacing, published quotas; one limiter per register endpoint per process, shared by every
 * client of that endpoint) and safe retries of idempotent requests.
 */
@Injectable()
export class HttpClientFactory implements OnApplicationShutdown {
  private readonly limiters = new Map<string, Bottleneck>();
  private readonly defaultAdapter: AxiosAdapter = getAdapter('http');

  constructor(private readonly config: AppConfig) {}

  forRegister(country: CountryCode, purpose: string, options: RegisterClientOptions = {}): AxiosInstance {
    const baseURL = this.config.register(country).urls[purpose];
    if (!baseURL) throw new Error(`register ${country} has no ${purpose} endpoint in the register table`);
    const limiter = this.limiter(country, purpose);
    const adapter = this.defaultAdapter;
    const client = axios.create({
      baseURL,
      timeout: options.timeoutMs ?? this.config.registerTimeoutMs,
      headers: { 'User-Agent': this.config.userAgent, Accept: 'application/json' },
      maxRedirects: 3,
      maxContentLength: 50 * 1024 * 1024,
      // Every request, including retries, waits for its turn at the register.
      adapter: (config) => limiter.schedule(() => adapter(config)),
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
          const idempotent = method === 'get' || method === 'head' || error.config?.headers?.['X-Idempotent'] === 'true';
          if (!idempotent) return false;
          if (error.code === 'ECONNABORTED') return false; // a timeout already spent the caller's budget
          const status = error.response?.status;
          return isNetworkError(error) || status === 429 || (status !== undefined && status >= 500);
        },
      });
    }
    return client;
  }

  onApplicationShutdown(): void {
    for (const limiter of this.limiters.values()) void limiter.disconnect();
    this.limiters.clear();
  }

  private limiter(country: CountryCode, purpose: string): Bottleneck {
    const key = `${country}:${purpose}`;
    let limiter = this.limiters.get(key);
    if (!limiter) {
      const politeness = findRegister(country)!.endpoints[purpose].politeness;
      limiter = new Bottleneck({
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
      });
      this.limiters.set(key, limiter);
    }
    return limiter;
  }
}
