import { testSecretBox } from '../../../../test/support/secrets';
import type { DataSource } from 'typeorm';
import type { SchedulerRegistry } from '@nestjs/schedule';
import { testPublisher } from '../../../../test/support/publisher';
import { createTestDataSource, TestBackend } from '../../../../test/support/database';
import { QUEUES } from '../../../app/queues';
import { ManualClock } from '../../../platform/clock';
import type { AppConfig } from '../../../platform/config/app-config';
import { randomId } from '../../../platform/ids';
import { InProcessJobQueue } from '../../../platform/jobs/in-process-job-queue';
import { newWebhookSecret } from '../signing/standard-webhooks';
import { DeliveryQueue } from './delivery-queue.service';
import { DeliveryStore } from './delivery-store';
import { DeliverySweeper } from './delivery.sweeper';
import { DELIVERY_QUEUE } from './delivery.queue';

const BACKENDS: TestBackend[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
jest.setTimeout(60_000);

describe.each(BACKENDS)('DeliverySweeper on %s', (backend) => {
  let dataSource: DataSource;
  let config: AppConfig;
  let close: () => Promise<void>;
  let jobs: InProcessJobQueue;
  let sweeper: DeliverySweeper;
  const clock = new ManualClock(new Date());
  /** Two deliveries, to two endpoints: one due long ago, one due recently. */
  let old: string;
  let recent: string;
  let start: number;

  beforeAll(async () => {
    ({ dataSource, config, close } = await createTestDataSource(backend));
    const accountId = randomId('acct');
    await dataSource.query(
      `INSERT INTO account (id, email, created_at, live_delivery_since) VALUES ($1, 'sweep@example.com', now(), now())`,
      [accountId],
    );
    for (let i = 0; i < 2; i++)
      await dataSource.query(
        `INSERT INTO webhook_endpoint (id, account_id, url, events, secret, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, now(), now())`,
        [randomId('we'), accountId, `http://127.0.0.1:9/sweep/${i}`, ['company.name_changed'], newWebhookSecret()],
      );
    const now = new Date().toISOString();
    const publisher = testPublisher(dataSource, config);
    const { deliveries } = await dataSource.transaction((m) =>
      publisher.publish(m, {
        accountId,
        kind: 'company.name_changed',
        isTest: false,
        data: {
          entity_id: 'ent_no_912345678',
          country: 'NO',
          company_name: 'SWEEP TEST AS',
          registration_number: '912345678',
          register: { name: 'Enhetsregisteret', official_url: 'https://www.brreg.no' },
          change: { field: 'name', previous: 'OLD AS', current: 'SWEEP TEST AS', observed_at: now },
          provenance: {
            source_mode: 'live',
            source_url: 'https://virksomhet.brreg.no/nb/oppslag/enheter/912345678',
            retrieved_at: now,
          },
        },
      }),
    );
    [old, recent] = deliveries.map((d) => d.id);
    start = Date.now();
    await dataSource.query(`UPDATE delivery SET next_attempt_at = $2 WHERE id = $1`, [old, new Date(start - 60_000)]);
    await dataSource.query(`UPDATE delivery SET next_attempt_at = $2 WHERE id = $1`, [
      recent,
      new Date(start + 30_000),
    ]);
    // The sweeper's clock: a minute on, both are due and neither is in the grace period.
    clock.set(new Date(start + 60_000));
  });

  afterAll(() => close());

  beforeEach(() => {
    // No processor: every job added waits in line.
    jobs = new InProcessJobQueue(QUEUES);
    sweeper = new DeliverySweeper(
      new DeliveryStore(dataSource, config, testSecretBox()),
      new DeliveryQueue(jobs),
      clock,
      config,
      {} as SchedulerRegistry,
    );
  });

  afterEach(() => jobs.beforeApplicationShutdown());

  const waiting = async () => (await jobs.counts()).find((c) => c.queue === DELIVERY_QUEUE.name)!.waiting;

  it('wakes every due delivery when no wake waits in the queue', async () => {
    expect(await jobs.oldestWaiting(DELIVERY_QUEUE)).toBeNull();
    expect(await sweeper.sweep()).toBe(2);
    expect(await waiting()).toBe(2);
  });

  it('while a backlog waits, wakes only what became due before its oldest wake', async () => {
    // A wake that has waited since the start (as one of a backlog would).
    await new DeliveryQueue(jobs).wake(randomId('dl'), 1);
    const oldest = await jobs.oldestWaiting(DELIVERY_QUEUE);
    expect(oldest!.getTime()).toBeGreaterThanOrEqual(start);
    expect(await sweeper.sweep()).toBe(1);
    expect(await waiting()).toBe(2);
    // The job the sweep added is the old delivery's: adding it again is a no-op (same id).
    const tag = `s${Math.floor(clock.now().getTime() / config.webhooks.sweepIntervalMs)}`;
    await new DeliveryQueue(jobs).wake(old, 1, { tag });
    expect(await waiting()).toBe(2);
    await new DeliveryQueue(jobs).wake(recent, 1, { tag });
    expect(await waiting()).toBe(3);
  });
});
