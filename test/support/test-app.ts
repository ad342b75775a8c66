import { randomBytes } from 'node:crypto';
import { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { AppModule } from '../../src/app.module';
import { Clock, ManualClock } from '../../src/core/clock';
import { AppConfig, Role } from '../../src/core/config/app-config';
import { REGISTER_TABLE } from '../../src/registers/register-table';
import { configureHttpApp } from '../../src/http-app';
import { createTestPostgresDatabase } from './database';

/** Which suite a spec runs in: embedded (PGlite + in-process jobs) or services (Postgres + Bull on Redis). */
export type Mode = 'embedded' | 'services';

export const MODE: Mode = process.env.TEST_MODE === 'services' ? 'services' : 'embedded';

export interface TestApp {
  app: INestApplication;
  url: string;
  config: AppConfig;
  clock: ManualClock;
  get<T>(token: abstract new (...args: never[]) => T): T;
  close(): Promise<void>;
}

export interface TestAppOptions {
  mode?: Mode;
  role?: Role;
  env?: Record<string, string>;
  now?: string;
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
  const env: Record<string, string> = { LOG_LEVEL: 'silent', PROBE_INTERVAL_SECONDS: '300', DATASET_SEED: 'false', ...unreachableRegisters(), ...options.env };
  if (mode === 'services') {
    if (!process.env.DATABASE_URL || !process.env.REDIS_URL) throw new Error('services mode needs DATABASE_URL and REDIS_URL');
    const db = await createTestPostgresDatabase();
    dropDatabase = db.drop;
    env.DATABASE_URL = db.url;
    env.REDIS_URL = process.env.REDIS_URL;
    env.REDIS_KEY_PREFIX = env.REDIS_KEY_PREFIX ?? `rltest-${randomBytes(4).toString('hex')}`;
  } else {
    env.DATA_DIR = env.DATA_DIR ?? 'memory://';
  }
  const config = AppConfig.fromEnv(env, role);
  const clock = new ManualClock(new Date(options.now ?? '2026-11-22T12:00:00.000Z'));
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRole(role, config)] })
    .overrideProvider(Clock)
    .useValue(clock)
    .compile();
  const app = moduleRef.createNestApplication({ bodyParser: false, bufferLogs: true });
  configureHttpApp(app, config);
  await app.listen(0, '127.0.0.1');
  const port = (app.getHttpServer().address() as AddressInfo).port;
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    config,
    clock,
    get: (token) => app.get(token, { strict: false }),
    close: async () => {
      await app.close();
      await dropDatabase();
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
      env[`REGISTER_${def.country}_${purpose}_URL`] = `http://127.0.0.1:9/${def.country.toLowerCase()}/${purpose.toLowerCase()}`;
    }
  }
  return env;
}
