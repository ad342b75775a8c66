import { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { rootModuleFor } from '../../src/app/app.module';
import { Clock, ManualClock } from '../../src/platform/clock';
import { loadConfig } from '../../src/app/config';
import type { AppConfig, Role } from '../../src/platform/config/app-config';
import type { RegistersConfig } from '../../src/registers/register-config';
import { REGISTER_TABLE } from '../../src/registers/registers';
import { configureHttpApp } from '../../src/app/http-app';
import { createTestPostgresDatabase } from './database';
import { testRedisPrefix } from './redis-keys';
import { ensureEmbeddedTemplate } from './embedded-templates';
import { TEST_SECRETS_KEY } from './secrets';
import { OpenApiDocument } from '../../src/platform/openapi/openapi.controller';
import { OpenApiResponseValidator, RecordedResponse, recordResponses } from './openapi-validation';

/** Which suite a spec runs in: embedded (PGlite + in-process jobs) or services (Postgres + Bull on Redis). */
export type Mode = 'embedded' | 'services';

export const MODE: Mode = process.env.TEST_MODE === 'services' ? 'services' : 'embedded';

export interface TestApp {
  app: INestApplication;
  url: string;
  config: AppConfig;
  registers: RegistersConfig;
  /** Services mode: the test database's own URL (not through connectThrough). */
  databaseUrl?: string;
  clock: ManualClock;
  get<T>(token: abstract new (...args: never[]) => T): T;
  close(): Promise<void>;
}

export interface TestAppOptions {
  mode?: Mode;
  role?: Role;
  env?: Record<string, string>;
  now?: string;
  /** false: do not check the responses against the OpenAPI document at close (only for specs about malformed traffic the document cannot describe). */
  checkResponses?: boolean;
  /** Run on the real clock (the returned `clock` then moves nothing): webhook timestamps must be now for receivers to verify them. */
  realClock?: boolean;
  /** Services mode: the URL the app connects to, from the test database's (e.g. through a TCP proxy). */
  connectThrough?: (databaseUrl: string) => Promise<string> | string;
  /** Providers to replace, e.g. the DNS resolver. */
  overrides?: Array<{ provide: unknown; useValue: unknown }>;
  /** Keep the service's own keep-alive timeout (the tests' default outlasts fetch's, see below). */
  serviceKeepAlive?: boolean;
}

function checkAgainstDocument(app: INestApplication, responses: RecordedResponse[]): string[] {
  let document: unknown;
  try {
    document = app.get(OpenApiDocument, { strict: false }).document;
  } catch {
    return []; // a worker: no HTTP, no document
  }
  if (!document) return [];
  const validator = new OpenApiResponseValidator(document as unknown as Record<string, unknown>);
  return responses.flatMap((r) => validator.check(r));
}

/**
 * Boots the real application (AppModule, configureHttpApp) on a loopback port, with only the
 * clock replaced. Embedded: PGlite in memory and the in-process job runner. Services: a fresh
 * Postgres database and Bull on Redis under a key prefix of its own.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const mode = options.mode ?? MODE;
  const role = options.role ?? 'all';
  let dropDatabase = async () => undefined as void;
  let dropRedisKeys = async () => undefined as void;
  let databaseUrl: string | undefined;
  const env: Record<string, string> = {
    LOG_LEVEL: 'silent',
    PROBE_INTERVAL_SECONDS: '300',
    DATASET_SEED: 'false',
    ...unreachableRegisters(),
    // The app shares the event loop with the test's fetch: a loop stalled past undici's 1 s margin
    // let the server close an idle connection as fetch reused it (ECONNRESET). Fetch closes first.
    ...(options.serviceKeepAlive ? {} : { HTTP_KEEP_ALIVE_TIMEOUT_MS: '30000' }),
    ...options.env,
  };
  if (mode === 'services') {
    if (!process.env.DATABASE_URL || !process.env.REDIS_URL)
      throw new Error('services mode needs DATABASE_URL and REDIS_URL');
    const db = await createTestPostgresDatabase();
    dropDatabase = db.drop;
    env.DATABASE_URL = options.connectThrough ? await options.connectThrough(db.url) : db.url;
    databaseUrl = db.url;
    env.REDIS_URL = process.env.REDIS_URL;
    env.WEBHOOK_SECRETS_KEY ??= TEST_SECRETS_KEY;
    if (!env.REDIS_KEY_PREFIX) {
      const own = testRedisPrefix('rltest');
      env.REDIS_KEY_PREFIX = own.prefix;
      dropRedisKeys = own.drop;
    }
  } else {
    env.DATA_DIR = env.DATA_DIR ?? 'memory://';
  }
  const configs = loadConfig(env, role);
  const config = configs.app;
  await ensureEmbeddedTemplate(config);
  const clock = new ManualClock(new Date(options.now ?? '2026-11-22T12:00:00.000Z'));
  let builder = Test.createTestingModule({ imports: [rootModuleFor(role, configs)] });
  if (!options.realClock) builder = builder.overrideProvider(Clock).useValue(clock);
  for (const o of options.overrides ?? []) builder = builder.overrideProvider(o.provide).useValue(o.useValue);
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication({ bodyParser: false, bufferLogs: true });
  // Every response this app sends is checked against its own OpenAPI document when it closes.
  const responses: RecordedResponse[] = [];
  app.use(recordResponses(responses));
  configureHttpApp(app, config);
  await app.listen(0, '127.0.0.1');
  const port = (app.getHttpServer().address() as AddressInfo).port;
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    config,
    registers: configs.registers,
    databaseUrl,
    clock,
    get: (token) => app.get(token, { strict: false }),
    close: async () => {
      const mismatches = options.checkResponses === false ? [] : checkAgainstDocument(app, responses);
      await app.close();
      await dropDatabase();
      await dropRedisKeys();
      if (mismatches.length > 0) {
        throw new Error(
          `${mismatches.length} response(s) do not match the OpenAPI document:\n  ${[...new Set(mismatches)].slice(0, 25).join('\n  ')}`,
        );
      }
    },
  };
}

/**
 * Every register endpoint the service reads on a closed loopback port unless a test points
 * it at a fake: no test ever reaches for the internet. (Link-only bases keep their real
 * addresses, as record URLs must.)
 */
export function unreachableRegisters(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const def of REGISTER_TABLE) {
    for (const [purpose, endpoint] of Object.entries(def.endpoints)) {
      if (endpoint.linksOnly) continue;
      env[`REGISTER_${def.country}_${purpose}_URL`] =
        `http://127.0.0.1:9/${def.country.toLowerCase()}/${purpose.toLowerCase()}`;
    }
  }
  // GLEIF's LEI index too: search results look their LEIs up there.
  env.REGISTER_LEI_API_URL = 'http://127.0.0.1:9/lei/api';
  return env;
}
