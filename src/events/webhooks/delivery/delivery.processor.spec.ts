import { Clock } from '../../../platform/clock';
import { AppConfig } from '../../../platform/config/app-config';
import { InProcessJobQueue } from '../../../platform/jobs/in-process-job-queue';
import { randomId } from '../../../platform/ids';
import { EventPublisher } from '../events/event-publisher.service';
import type { Deliverer } from './deliverer.service';
import { DeliveryQueue } from './delivery-queue.service';
import { DeliveryProcessor } from './delivery.processor';

/**
 * The wake of an event sent to several endpoints: one job on the queue (through its payload
 * check), and the worker claims for the endpoint of every delivery of it — each endpoint's
 * drain starts there. The deliverer here only notes what it is asked to claim for and finds
 * nothing to claim; the claims themselves are DeliveryStore's (delivery-store.spec.ts).
 */
describe('DeliveryProcessor waking an event’s deliveries', () => {
  it('takes one job for an event to three endpoints and claims for each of their endpoints', async () => {
    const jobs = new InProcessJobQueue();
    const added: unknown[] = [];
    const add = jobs.add.bind(jobs);
    jobs.add = (async (queue, data, options) => {
      added.push(data);
      return add(queue, data, options);
    }) as typeof jobs.add;
    const looked: string[] = [];
    const deliverer = {
      peek: async () => {
        throw new Error('a wake that names its endpoint needs no look');
      },
      claim: async (target: { endpointId: string }) => {
        looked.push(target.endpointId);
        return [];
      },
    } as unknown as Deliverer;
    const config = AppConfig.fromEnv({}, 'worker');
    const queue = new DeliveryQueue(jobs);
    const processor = new DeliveryProcessor(jobs, deliverer, queue, new Clock(), config);
    processor.onModuleInit();

    const deliveries = [0, 1, 2].map(() => ({
      id: randomId('dlv'),
      endpointId: randomId('we'),
      messageId: randomId('msg'),
      state: 'pending' as const,
    }));
    const held = {
      id: randomId('dlv'),
      endpointId: randomId('we'),
      messageId: randomId('msg'),
      state: 'held' as const,
    };
    const unused = undefined as never;
    const publisher = new EventPublisher(unused, unused, unused, unused, unused, queue, new Clock(), config);
    await publisher.wake({ eventId: randomId('evt'), deliveries: [...deliveries, held] });
    await jobs.drain();

    expect(added).toHaveLength(1);
    expect(looked.sort()).toEqual(deliveries.map((d) => d.endpointId).sort());
  });
});
