import { z } from 'zod';
import { parseAllowlist, RateLimitAllowEntry } from '../rate-limit/client-key';
import { parseSecretsKey } from '../crypto/secret-box';
import { Cidr, parseCidrs } from './cidrs';
import { parseDuration, parseSchedule } from './durations';

export type Role = 'all' | 'api' | 'worker';

/** A configuration that cannot run: every bad value, one per line. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

export const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
export const url = z.string().url();
const positiveInt = z.coerce.number().int().positive();
/** A zod string turned into a value by `parse`; a thrown message becomes the variable's error. */
const parsed = <T>(parse: (v: string) => T) =>
  z.string().transform((v, ctx) => {
    try {
      return parse(v);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: (e as Error).message });
      return z.NEVER;
    }
  });

/** Every variable the service reads besides the per-register ones: schema, default, meaning (README table). */
export const ENV_VARIABLES = {
  PORT: {
    schema: z.coerce.number().int().min(0).max(65535).default(3000),
    default: '3000',
    meaning: 'HTTP port of the api (and of the all-in-one process).',
  },
  HOST: {
    schema: z.string().min(1).default('0.0.0.0'),
    default: '0.0.0.0',
    meaning: 'Address the HTTP server binds to.',
  },
  DATA_DIR: {
    schema: z.string().min(1).default('./data'),
    default: './data',
    meaning: 'Directory of the embedded PGlite database (used when DATABASE_URL is not set).',
  },
  DATABASE_URL: {
    schema: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
    default: '(none: embedded PGlite)',
    meaning: 'Postgres connection URL. Set: Postgres; unset: PGlite under DATA_DIR.',
  },
  REDIS_URL: {
    schema: z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// URL')
      .optional(),
    default: '(none: in-process)',
    meaning:
      'Redis URL. Set: Bull job queues and rate-limit counts shared by every replica; unset: in-process job runner and in-memory counts. Required by start:api and start:worker.',
  },
  REDIS_KEY_PREFIX: {
    schema: z
      .string()
      .regex(/^[\w.-]{1,64}$/, 'letters, digits, _ . - only')
      .default('registry-lookup'),
    default: 'registry-lookup',
    meaning: 'Prefix of every Redis key (queues, rate-limit counts).',
  },
  MIGRATE_ON_BOOT: {
    schema: bool.default(true),
    default: 'true',
    meaning:
      'Apply pending migrations at boot (under an advisory lock on Postgres). docker-compose sets false and runs the one-shot migrate service instead.',
  },
  HTTP_HEADERS_TIMEOUT_MS: {
    schema: positiveInt.default(15_000),
    default: '15000',
    meaning:
      'A client must send its complete request headers within this time, or gets 408 and the connection is closed (slow-header clients).',
  },
  HTTP_REQUEST_TIMEOUT_MS: {
    schema: positiveInt.default(30_000),
    default: '30000',
    meaning:
      'A client must send its whole request (headers and body) within this time, or gets 408 and the connection is closed. At least HTTP_HEADERS_TIMEOUT_MS.',
  },
  HTTP_KEEP_ALIVE_TIMEOUT_MS: {
    schema: positiveInt.default(5_000),
    default: '5000',
    meaning:
      "An idle keep-alive connection is closed after this time. Behind a load balancer, keep it above the balancer's own idle timeout.",
  },
  PUBLIC_BASE_URL: {
    schema: url.optional(),
    default: '(none: the address each request was made to)',
    meaning:
      "Public address of the service, for the links it gives out (attribution, webhook payloads) and the User-Agent of its register reads and webhooks. Unset, links use the address each request was made to (and, in background work of a process that serves HTTP, the port it listens on); set it behind a proxy or when the worker runs apart. The OpenAPI document's server is relative, so /docs works on any address.",
  },
  RATE_LIMIT_PER_HOUR: {
    schema: positiveInt.default(120),
    default: '120',
    meaning: 'Requests per hour per client IP (IPv6: per /64) across all /api/public/v1 endpoints.',
  },
  RATE_LIMIT_ALLOWLIST: {
    schema: z.string().default(''),
    default: '(empty)',
    meaning:
      'Comma-separated CIDR[=limit] entries with a higher limit, or none without "=limit": e.g. "10.0.0.0/8=10000, 2001:db8::/32, 192.0.2.7".',
  },
  TRUST_PROXY: {
    schema: z.string().default('false'),
    default: 'false',
    meaning:
      'Express "trust proxy": false, a hop count (1 behind one load balancer), or trusted proxy addresses/CIDRs. Decides which IP is counted.',
  },
  PROBE_INTERVAL_SECONDS: {
    schema: positiveInt.default(300),
    default: '300',
    meaning:
      'Seconds between two probes of one register (one probe per register per slot, whatever the number of workers).',
  },
  PROBE_TIMEOUT_MS: {
    schema: positiveInt.default(10_000),
    default: '10000',
    meaning: 'A probe without an answer within this time fails as a timeout.',
  },
  REGISTER_TIMEOUT_MS: {
    schema: positiveInt.default(10_000),
    default: '10000',
    meaning: 'Timeout of one live register read.',
  },
  REGISTER_BREAKER_RETRY_SECONDS: {
    schema: positiveInt.default(30),
    default: '30',
    meaning:
      'A register found unreachable (connection-level failures of reads or a probe) gets no live read for this long; then one trial read decides. Meanwhile searches answer from the fallback dataset at once.',
  },
  LEI_LOOKUP_TIMEOUT_MS: {
    schema: z.coerce.number().int().min(50).max(10_000).default(800),
    default: '800',
    meaning:
      'Search results and company lookups show each company’s `lei` from GLEIF’s index, read in one batched request per response: the response waits at most this long for it (the field is then absent, never wrong).',
  },
  DATASET_SEED: {
    schema: bool.default(true),
    default: 'true',
    meaning:
      'Load the bundled sample of real records (companies read from recorded register answers, a few per register) into the fallback dataset at migration time, without overwriting imported rows.',
  },
  SEARCH_MAX_RESULTS: {
    schema: z.coerce.number().int().min(1).max(100).default(20),
    default: '20',
    meaning: 'Most results one search returns.',
  },
  DETECTION_INTERVAL_SECONDS: {
    schema: z.coerce.number().int().min(1).default(3600),
    default: '3600',
    meaning:
      'Change detection: each watched company is checked once per interval, checks spread evenly over it (registers without a feed are re-read; feed registers are checked against their feed).',
  },
  FEED_POLL_INTERVAL_SECONDS: {
    schema: z.coerce.number().int().min(1).default(60),
    default: '60',
    meaning:
      'Change detection: seconds between two polls of a register change feed (the registers that publish one: see docs/detection.md).',
  },
  WEBHOOK_TIMEOUT_MS: {
    schema: z.coerce.number().int().min(100).max(60_000).default(15_000),
    default: '15000',
    meaning:
      'A webhook delivery attempt succeeds only with a 2xx answer within this many milliseconds (connection, headers and body included).',
  },
  WEBHOOK_RETRY_SCHEDULE: {
    schema: parsed(parseSchedule).default(parseSchedule('5s,5m,30m,2h,5h,10h,10h')),
    default: '5s,5m,30m,2h,5h,10h,10h',
    meaning:
      'Delays before each retry of a failed delivery (±10 % jitter; Retry-After honoured within these bounds). After the last one the delivery is failed for good.',
  },
  WEBHOOK_DISABLE_AFTER: {
    schema: parsed(parseDuration).default(parseDuration('5d')),
    default: '5d',
    meaning:
      'An endpoint whose every delivery attempt failed for this long is disabled, with the reason shown on the endpoint.',
  },
  WEBHOOK_ENDPOINT_CONCURRENCY: {
    schema: z.coerce.number().int().min(1).max(100).default(4),
    default: '4',
    meaning: 'Most delivery requests in flight to one endpoint at once, across every worker.',
  },
  WEBHOOK_WORKER_CONCURRENCY: {
    schema: z.coerce.number().int().min(1).max(10_000).default(256),
    default: '256',
    meaning:
      'Most delivery requests in flight from one worker at once, over all endpoints. A request holds its slot until it is answered or times out (a failed one, until its outcome is written); a delivery that finds its endpoint full or its circuit open waits without one.',
  },
  WEBHOOK_CIRCUIT_THRESHOLD: {
    schema: z.coerce.number().int().min(1).max(1_000).default(5),
    default: '5',
    meaning:
      'Consecutive failed attempts (any endpoint delivery, across workers) that open an endpoint’s circuit: its deliveries are then held, not attempted, until one probe is due.',
  },
  WEBHOOK_CIRCUIT_BACKOFF: {
    schema: parsed(parseSchedule).default(parseSchedule('5s,30s,2m,10m')),
    default: '5s,30s,2m,10m',
    meaning:
      'How long an open circuit holds an endpoint’s deliveries before one probe attempt, for each time it opens in a row (the last delay repeats). A probe that succeeds closes the circuit; one that fails opens it again for the next delay.',
  },
  WEBHOOK_TARGET_ALLOWLIST: {
    schema: z.string().default(''),
    default: '(empty)',
    meaning:
      'Comma-separated CIDRs that webhook targets may reach although they are private or reserved (local development and tests only; a warning is logged when set), e.g. "127.0.0.0/8".',
  },
  DELIVERY_SWEEP_INTERVAL_MS: {
    schema: z.coerce.number().int().min(200).max(600_000).default(10_000),
    default: '10000',
    meaning:
      'How often a worker looks for deliveries that are due but in no queue (after a Redis restart, a killed worker, a restart of the embedded process) and wakes them.',
  },
  SIMULATOR_SENDS_PER_HOUR: {
    schema: positiveInt.default(60),
    default: '60',
    meaning: 'Test events one account may send from the simulator per rolling hour (counted in the database).',
  },
  WATCHES_PER_ACCOUNT: {
    schema: positiveInt.default(10_000),
    default: '10000',
    meaning:
      'Most companies one account may watch at once; past it, a new watch is 409 watch_quota_exceeded (and a bulk creation creates what fits).',
  },
  SIGNUPS_PER_HOUR_PER_IP: {
    schema: positiveInt.default(10),
    default: '10',
    meaning: 'Account sign-ups per hour per client IP (IPv6: per /64).',
  },
  ACCOUNT_RATE_LIMIT_PER_HOUR: {
    schema: positiveInt.default(3_600),
    default: '3600',
    meaning:
      'Requests per hour per account across the authenticated /api/v1 endpoints and the MCP account tools (not counted in the public per-IP limit).',
  },
  DATABASE_POOL_SIZE: {
    schema: z.coerce.number().int().min(1).max(200).default(10),
    default: '10',
    meaning: 'Postgres connections of one process for everything but the public reads.',
  },
  DATABASE_PUBLIC_POOL_SIZE: {
    schema: z.coerce.number().int().min(1).max(100).default(4),
    default: '4',
    meaning:
      'Postgres connections of one api process kept for the open read API (/api/public/v1, health): requests stuck on a lock or a slow table elsewhere cannot take them.',
  },
  DATABASE_POOL_WAIT_MS: {
    schema: z.coerce.number().int().min(100).max(60_000).default(2_000),
    default: '2000',
    meaning:
      'Longest a request waits for a free database connection before it is answered 503 service_unavailable (with Retry-After).',
  },
  DATABASE_QUERY_TIMEOUT_MS: {
    schema: z.coerce.number().int().min(500).max(600_000).default(8_000),
    default: '8000',
    meaning:
      'Longest one query of a request may take, counted by the service itself (a stalled network included): past it, 503 service_unavailable. Lock waits give up at half of it. Background work allows 30 s; operator commands (imports, migrations) have no limit.',
  },
  WEBHOOK_SECRETS_KEY: {
    schema: parsed(parseSecretsKey).optional(),
    default: '(embedded: generated in DATA_DIR/secrets.key)',
    meaning:
      'Key that encrypts webhook signing secrets at rest (AES-256-GCM): 32 random bytes in base64, e.g. `openssl rand -base64 32`. Required with DATABASE_URL, the same in every process. To rotate it, see docs/operations.md.',
  },
  WEBHOOK_SECRETS_OLD_KEYS: {
    schema: parsed((v) =>
      v
        .split(',')
        .filter((k) => k.trim())
        .map(parseSecretsKey),
    ).default([]),
    default: '(empty)',
    meaning:
      'Comma-separated keys that encrypted secrets before WEBHOOK_SECRETS_KEY: still read, and each secret is encrypted again with the current key at boot.',
  },
  METRICS_PORT: {
    schema: z.coerce.number().int().min(0).max(65535).optional(),
    default: '(none: no metrics)',
    meaning:
      'Port of a separate HTTP server, in the api and in each worker, that serves GET /metrics in the Prometheus text format (never on PORT; the worker opens no other port). Unset: nothing is served and nothing is measured. See docs/operations.md#metrics.',
  },
  METRICS_GC_DURATION: {
    schema: bool.default(false),
    default: 'false',
    meaning:
      "With METRICS_PORT: also serve prom-client's nodejs_gc_duration_seconds. Off by default: observing every garbage collection cost about 4 % of the CPU per request (docs/benchmarks.md#metrics-cost-on-registers).",
  },
  LOG_LEVEL: {
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    default: 'info',
    meaning: 'Log level of the JSON logs (fatal … trace, or silent).',
  },
} as const;

type EnvSchemas = { [K in keyof typeof ENV_VARIABLES]: (typeof ENV_VARIABLES)[K]['schema'] };
const baseSchema = z.object(
  Object.fromEntries(Object.entries(ENV_VARIABLES).map(([k, v]) => [k, v.schema])) as unknown as EnvSchemas,
);

export class AppConfig {
  readonly role: Role;
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly databaseUrl?: string;
  readonly redisUrl?: string;
  /** Prefix of every Redis key (Bull queues, rate-limit counts): lets several deployments share one Redis. */
  readonly redisKeyPrefix: string;
  readonly migrateOnBoot: boolean;
  readonly datasetSeed: boolean;
  /** PUBLIC_BASE_URL without its trailing slash; unset, see PublicAddress. */
  readonly publicBaseUrl?: string;
  readonly rateLimit: { perHour: number; allowlist: RateLimitAllowEntry[] };
  /** Express `trust proxy` setting: false, a hop count, or a list of addresses/CIDRs. */
  readonly trustProxy: boolean | number | string;
  readonly probe: { intervalSeconds: number; timeoutMs: number };
  readonly detection: { intervalSeconds: number; feedPollIntervalSeconds: number };
  readonly registerTimeoutMs: number;
  /** Connection shares and how long work may wait for Postgres (see data-source-options.ts). */
  readonly database: { poolSize: number; publicPoolSize: number; poolWaitMs: number; queryTimeoutMs: number };
  /** Longest wait for GLEIF's batched number → LEI lookup of one response. */
  readonly leiLookupTimeoutMs: number;
  /** Seconds a register's breaker stays open before one trial read. */
  readonly registerBreakerRetrySeconds: number;
  /** HTTP server limits against slow or idle clients. */
  readonly http: { headersTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs: number };
  readonly logLevel: string;
  /** Port of the /metrics server; undefined: no metrics. */
  readonly metricsPort?: number;
  /** Whether /metrics also has the garbage collector's durations (costly: a callback per collection). */
  readonly metricsGcDuration: boolean;
  readonly searchMaxResults: number;
  readonly apiVersion: string;
  readonly userAgent: string;
  readonly webhooks: {
    timeoutMs: number;
    /** Delays before each retry, in order. */
    retrySchedule: number[];
    disableAfterMs: number;
    endpointConcurrency: number;
    /** Requests in flight from one worker, over all endpoints. */
    workerConcurrency: number;
    /** Consecutive failures that open an endpoint's circuit, and the delays before each probe. */
    circuit: { threshold: number; backoff: number[] };
    /** Private or reserved ranges webhook targets may reach anyway (tests, local development). */
    targetAllowlist: Cidr[];
    sweepIntervalMs: number;
    userAgent: string;
  };
  /** WEBHOOK_SECRETS_KEY and the keys before it; unset on the embedded default, which keeps its own. */
  readonly secretsKeys: { current?: Buffer; old: Buffer[] };
  readonly limits: {
    simulatorSendsPerHour: number;
    signupsPerHourPerIp: number;
    accountRequestsPerHour: number;
    watchesPerAccount: number;
  };

  private constructor(values: Omit<AppConfig, 'isEmbedded'>) {
    Object.assign(this, values);
  }

  /** True when the service runs on PGlite and the in-process job runner (no Postgres, no Redis). */
  get isEmbedded(): boolean {
    return !this.databaseUrl;
  }

  /** Reads and validates the environment once; throws one readable error listing every bad value. */
  static fromEnv(env: NodeJS.ProcessEnv, role: Role = 'all'): AppConfig {
    const parsed = baseSchema.safeParse(stripEmpty(env));
    const problems: string[] = [];
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problems.push(`${issue.path.join('.')}: ${issue.message}`);
    }
    let allowlist: RateLimitAllowEntry[] = [];
    try {
      allowlist = parseAllowlist(env.RATE_LIMIT_ALLOWLIST ?? '');
    } catch (e) {
      problems.push(`RATE_LIMIT_ALLOWLIST: ${(e as Error).message}`);
    }
    let targetAllowlist: Cidr[] = [];
    try {
      targetAllowlist = parseCidrs(env.WEBHOOK_TARGET_ALLOWLIST ?? '');
    } catch (e) {
      problems.push(`WEBHOOK_TARGET_ALLOWLIST: ${(e as Error).message}`);
    }
    if (parsed.success && parsed.data.HTTP_HEADERS_TIMEOUT_MS > parsed.data.HTTP_REQUEST_TIMEOUT_MS) {
      problems.push('HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS');
    }
    if (
      parsed.success &&
      role !== 'worker' &&
      parsed.data.METRICS_PORT &&
      parsed.data.METRICS_PORT === parsed.data.PORT
    ) {
      problems.push('METRICS_PORT: must differ from PORT (metrics are never served on the public port)');
    }
    if (problems.length > 0 || !parsed.success) {
      throw new ConfigError(problems);
    }
    const v = parsed.data;
    const apiVersion = readApiVersion();
    return new AppConfig({
      role,
      port: v.PORT,
      host: v.HOST,
      dataDir: v.DATA_DIR,
      databaseUrl: v.DATABASE_URL,
      redisUrl: v.REDIS_URL,
      redisKeyPrefix: v.REDIS_KEY_PREFIX,
      migrateOnBoot: v.MIGRATE_ON_BOOT,
      datasetSeed: v.DATASET_SEED,
      publicBaseUrl: v.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
      rateLimit: { perHour: v.RATE_LIMIT_PER_HOUR, allowlist },
      trustProxy: parseTrustProxy(v.TRUST_PROXY),
      probe: { intervalSeconds: v.PROBE_INTERVAL_SECONDS, timeoutMs: v.PROBE_TIMEOUT_MS },
      detection: {
        intervalSeconds: v.DETECTION_INTERVAL_SECONDS,
        feedPollIntervalSeconds: v.FEED_POLL_INTERVAL_SECONDS,
      },
      registerTimeoutMs: v.REGISTER_TIMEOUT_MS,
      database: {
        poolSize: v.DATABASE_POOL_SIZE,
        publicPoolSize: v.DATABASE_PUBLIC_POOL_SIZE,
        poolWaitMs: v.DATABASE_POOL_WAIT_MS,
        queryTimeoutMs: v.DATABASE_QUERY_TIMEOUT_MS,
      },
      leiLookupTimeoutMs: v.LEI_LOOKUP_TIMEOUT_MS,
      registerBreakerRetrySeconds: v.REGISTER_BREAKER_RETRY_SECONDS,
      http: {
        headersTimeoutMs: v.HTTP_HEADERS_TIMEOUT_MS,
        requestTimeoutMs: v.HTTP_REQUEST_TIMEOUT_MS,
        keepAliveTimeoutMs: v.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      },
      logLevel: v.LOG_LEVEL,
      metricsPort: v.METRICS_PORT,
      metricsGcDuration: v.METRICS_GC_DURATION,
      searchMaxResults: v.SEARCH_MAX_RESULTS,
      apiVersion,
      userAgent: userAgent('RegistryLookup', apiVersion, v.PUBLIC_BASE_URL),
      webhooks: {
        timeoutMs: v.WEBHOOK_TIMEOUT_MS,
        retrySchedule: v.WEBHOOK_RETRY_SCHEDULE,
        disableAfterMs: v.WEBHOOK_DISABLE_AFTER,
        endpointConcurrency: v.WEBHOOK_ENDPOINT_CONCURRENCY,
        workerConcurrency: v.WEBHOOK_WORKER_CONCURRENCY,
        circuit: { threshold: v.WEBHOOK_CIRCUIT_THRESHOLD, backoff: v.WEBHOOK_CIRCUIT_BACKOFF },
        targetAllowlist,
        sweepIntervalMs: v.DELIVERY_SWEEP_INTERVAL_MS,
        userAgent: userAgent('RegistryLookup-Webhooks', apiVersion, v.PUBLIC_BASE_URL),
      },
      secretsKeys: { current: v.WEBHOOK_SECRETS_KEY, old: v.WEBHOOK_SECRETS_OLD_KEYS },
      limits: {
        simulatorSendsPerHour: v.SIMULATOR_SENDS_PER_HOUR,
        watchesPerAccount: v.WATCHES_PER_ACCOUNT,
        signupsPerHourPerIp: v.SIGNUPS_PER_HOUR_PER_IP,
        accountRequestsPerHour: v.ACCOUNT_RATE_LIMIT_PER_HOUR,
      },
    });
  }
}

/** `Name/1.0.0 (+https://…)`: the service's public address when it has one configured, never a guess. */
function userAgent(name: string, version: string, base: string | undefined): string {
  return base ? `${name}/${version} (+${base.replace(/\/+$/, '')})` : `${name}/${version}`;
}

function stripEmpty(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') out[k] = v;
  return out;
}

export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'false' || value === '0') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

function readApiVersion(): string {
  // package.json sits two levels above both src/ (ts-jest) and dist/ (compiled).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('../../../package.json') as { version: string }).version;
}
