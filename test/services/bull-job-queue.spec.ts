import Bull from 'bull';
import { randomBytes } from 'node:crypto';
import { QUEUES } from '../../src/app/queues';
import { DELIVERY_QUEUE } from '../../src/events/webhooks/delivery/delivery.queue';
import { BullJobQueue } from '../../src/platform/jobs/bull-job-queue';
import { HAS_SERVICES } from '../support/database';

const suite = HAS_SERVICES ? describe : describe.skip;

suite('BullJobQueue on Redis', () => {
  let queue: Bull.Queue;
  let jobs: BullJobQueue;

  beforeAll(() => {
    queue = new Bull(DELIVERY_QUEUE.name, {
      redis: process.env.REDIS_URL,
      prefix: `rltest-${randomBytes(4).toString('hex')}`,
    });
    jobs = new BullJobQueue(new Map([[DELIVERY_QUEUE.name, queue]]), QUEUES);
  });

  afterAll(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
  });

  it('tells when the job next in line became ready: the oldest waiting, never a delayed one', async () => {
    expect(await jobs.oldestWaiting(DELIVERY_QUEUE)).toBeNull();
    await jobs.add(DELIVERY_QUEUE, { deliveryId: 'dl_first' }, { jobId: 'first' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await jobs.add(DELIVERY_QUEUE, { deliveryId: 'dl_second' }, { jobId: 'second' });
    await jobs.add(DELIVERY_QUEUE, { deliveryId: 'dl_later' }, { jobId: 'later', delayMs: 60_000 });
    const first = await queue.getJob('first');
    expect((await jobs.oldestWaiting(DELIVERY_QUEUE))?.getTime()).toBe(first!.timestamp);
    // Once it is taken, the next one in line.
    await first!.remove();
    const second = await queue.getJob('second');
    expect((await jobs.oldestWaiting(DELIVERY_QUEUE))?.getTime()).toBe(second!.timestamp);
    await second!.remove();
    expect(await jobs.oldestWaiting(DELIVERY_QUEUE)).toBeNull();
  });
});
