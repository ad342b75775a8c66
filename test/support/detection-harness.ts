import { DATABASE_SCHEMA } from '../../src/app/database-schema';
import { QUEUES } from '../../src/app/queues';
import { Test } from '@nestjs/testing';
import type { INestApplicationContext } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Clock, ManualClock } from '../../src/platform/clock';
import { AppConfig } from '../../src/platform/config/app-config';
import { PlatformModule } from '../../src/platform/platform.module';
import { RateLimitModule } from '../../src/platform/rate-limit/rate-limit.module';
import { RegistersModule } from '../../src/registers/registers.module';
import type { RegistersConfig } from '../../src/registers/register-config';
import { loadConfig } from '../../src/app/config';
import { JobsModule } from '../../src/platform/jobs/jobs.module';
import { DatabaseModule } from '../../src/platform/database/database.module';
import { CompanyCheckService, CheckResult } from '../../src/events/monitoring/checks/company-check.service';
import {
  DetectionEventWriter,
  DetectionEvent,
  EmittedEvent,
} from '../../src/events/monitoring/events/detection-event-writer';
import { FeedCursorStore } from '../../src/events/monitoring/feeds/feed-cursor-store';
import { FeedPollService } from '../../src/events/monitoring/feeds/feed-poll.service';
import { MonitoringModule } from '../../src/events/monitoring/monitoring.module';
import { entityId as entityIdOf } from '../../src/registers/entity-id';
import { COUNTRY_CODES, CountryCode } from '../../src/registers/registers';
import { RegisterStatusService } from '../../src/status/register-status.service';
import { StatusModule } from '../../src/status/status.module';
import { FakeRegisters, startFakeRegisters } from './fake-registers';
import { unreachableRegisters } from './test-app';
import { ensureEmbeddedTemplate } from './embedded-templates';

/**
 * Test double of the event port, for unit specs only: keeps the events of committed
 * transactions (it writes a row in the caller's transaction and reads them back), so a rolled
 * back check leaves nothing, exactly as the outbox would.
 */
export class RecordingSink implements Pick<DetectionEventWriter, 'emit' | 'wake'> {
  async emit(m: EntityManager, event: DetectionEvent): Promise<EmittedEvent> {
    await m.query(
      `CREATE TABLE IF NOT EXISTS test_detection_event (seq bigserial PRIMARY KEY, account_id text, kind text, data jsonb)`,
    );
    await m.query(`INSERT INTO test_detection_event (account_id, kind, data) VALUES ($1, $2, $3)`, [
      event.accountId,
      event.kind,
      JSON.stringify(event.data),
    ]);
    return { kind: event.kind };
  }

  async wake(): Promise<void> {}
}

export interface DetectionHarness {
  fakes: FakeRegisters;
  config: AppConfig;
  registers: RegistersConfig;
  clock: ManualClock;
  ctx: INestApplicationContext;
  dataSource: DataSource;
  checks: CompanyCheckService;
  feeds: FeedPollService;
  /** Watches a company for an account (the rows the watches API writes). */
  watch(accountId: string, country: CountryCode, registrationNumber: string, notifyNoChange?: boolean): Promise<string>;
  /** The account row a watch belongs to. */
  account(accountId: string): Promise<void>;
  /** Makes the register's stored status what probes would leave (live, or a healthy mirror). */
  setReadable(country: CountryCode, readable: boolean): Promise<void>;
  /** Claims and checks every due company of every register, as the scheduler and processor would. */
  runDueChecks(): Promise<CheckResult[]>;
  /** Committed events since the last call. */
  takeEvents(): Promise<DetectionEvent[]>;
  close(): Promise<void>;
}

export const T0 = '2026-11-22T12:00:00.000Z';

export async function startDetectionHarness(
  env: Record<string, string> = {},
  options: { now?: string } = {},
): Promise<DetectionHarness> {
  const fakes = await startFakeRegisters();
  const { app: config, registers } = loadConfig(
    {
      DATA_DIR: 'memory://',
      LOG_LEVEL: 'silent',
      DATASET_SEED: 'false',
      ...unreachableRegisters(),
      ...fakes.env,
      REGISTER_DK_USERNAME: 'u',
      REGISTER_DK_PASSWORD: 'p',
      REGISTER_AU_GUID: 'g',
      REGISTER_TIMEOUT_MS: '2000',
      ...env,
    },
    'worker',
  );
  await ensureEmbeddedTemplate(config);
  const clock = new ManualClock(new Date(options.now ?? T0));
  const moduleRef = await Test.createTestingModule({
    imports: [
      PlatformModule.forConfig(config),
      RateLimitModule,
      RegistersModule.forConfig(registers),
      DatabaseModule.forConfig(config, DATABASE_SCHEMA),
      JobsModule.forConfig(config, QUEUES),
      StatusModule,
      MonitoringModule,
    ],
  })
    .overrideProvider(Clock)
    .useValue(clock)
    .overrideProvider(DetectionEventWriter)
    .useValue(new RecordingSink())
    .compile();
  const ctx = await moduleRef.init();
  const dataSource = ctx.get(DataSource);
  const statuses = ctx.get(RegisterStatusService);
  const checks = ctx.get(CompanyCheckService);
  const cursors = ctx.get(FeedCursorStore);
  // Events committed before this process started (a restart on the same database) are not new.
  let seen = Number(
    (await dataSource.query(`SELECT to_regclass('test_detection_event') IS NOT NULL AS t`))[0].t
      ? (await dataSource.query(`SELECT coalesce(max(seq), 0) AS s FROM test_detection_event`))[0].s
      : 0,
  );
  const harness: DetectionHarness = {
    fakes,
    config,
    registers,
    clock,
    ctx,
    dataSource,
    checks,
    feeds: ctx.get(FeedPollService),
    async watch(accountId, country, registrationNumber, notifyNoChange = false) {
      const entityId = entityIdOf(country, registrationNumber);
      const now = clock.now();
      await dataSource.query(
        `INSERT INTO company_snapshot (entity_id, country, registration_number, next_check_at, created_at) VALUES ($1, $2, $3, $4, $4) ON CONFLICT DO NOTHING`,
        [entityId, country, registrationNumber, now],
      );
      await harness.account(accountId);
      const id = `wch_${accountId}_${entityId}`;
      await dataSource.query(
        `INSERT INTO watch (id, account_id, entity_id, country, registration_number, notify_no_change, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
        [id, accountId, entityId, country, registrationNumber, notifyNoChange, now],
      );
      return id;
    },
    async account(accountId) {
      await dataSource.query(`INSERT INTO account (id, email, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [
        accountId,
        `${accountId}@example.com`,
        clock.now(),
      ]);
    },
    async setReadable(country, readable) {
      const mirror = !readableSourceIsOfficial(registers, country);
      await statuses.update(country, () =>
        readable
          ? { status: mirror ? 'degraded' : 'live', reason: null, consecutiveFailures: 0, consecutiveSuccesses: 2 }
          : {
              status: 'degraded',
              reason: 'The last probe failed (http_5xx: HTTP 503).',
              consecutiveFailures: 1,
              consecutiveSuccesses: 0,
            },
      );
    },
    async runDueChecks() {
      const results: CheckResult[] = [];
      for (const country of COUNTRY_CODES) {
        const feedReadUpTo = (await cursors.get(country))?.caughtUpAt ?? undefined;
        if (feedReadUpTo) await checks.confirmQuiet(country, feedReadUpTo);
        for (const kind of ['read', 'confirm'] as const) {
          const { token, entityIds } = await checks.claimDue(country, 1000, kind, feedReadUpTo);
          if (entityIds.length) results.push(...(await checks.checkBatch(country, entityIds, token)));
        }
      }
      return results;
    },
    async takeEvents() {
      const exists: unknown[] = await dataSource.query(
        `SELECT 1 FROM pg_tables WHERE tablename = 'test_detection_event'`,
      );
      if (!exists.length) return [];
      const rows: Array<{
        seq: string;
        account_id: string;
        kind: DetectionEvent['kind'];
        data: Record<string, unknown>;
      }> = await dataSource.query(
        `SELECT seq, account_id, kind, data FROM test_detection_event WHERE seq > $1 ORDER BY seq`,
        [seen],
      );
      if (rows.length) seen = Number(rows[rows.length - 1].seq);
      return rows.map((r) => ({ accountId: r.account_id, kind: r.kind, data: r.data }));
    },
    async close() {
      await ctx.close();
      await fakes.stop();
    },
  };
  return harness;
}

function readableSourceIsOfficial(registers: RegistersConfig, country: CountryCode): boolean {
  return !(country === 'FR' && !registers.of('FR').credentials.API_KEY);
}

/** Resolves when `check` returns true, or fails after `timeoutMs`. */
export async function until(
  check: () => Promise<boolean> | boolean,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}
