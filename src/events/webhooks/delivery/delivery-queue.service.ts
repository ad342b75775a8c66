import { Injectable } from '@nestjs/common';
import { JobQueue } from '../../../platform/jobs/job-queue';
import { DELIVERY_QUEUE } from './delivery.queue';

/**
 * The only thing that adds delivery jobs. A job id names the delivery and the attempt it
 * wakes (plus a tag for wakes that are not the regular first try or retry), so the same wake
 * added twice — by two processes, or by the publisher and the sweeper — is one job, while a
 * new attempt never collides with the id of a finished job that Bull keeps for a day.
 */
@Injectable()
export class DeliveryQueue {
  constructor(private readonly jobs: JobQueue) {}

  async wake(
    deliveryId: string,
    attempt: number,
    options: { delayMs?: number; tag?: string; endpointId?: string } = {},
  ): Promise<void> {
    const jobId = `${deliveryId}:${attempt}${options.tag ? `:${options.tag}` : ''}`;
    await this.jobs.add(
      DELIVERY_QUEUE,
      options.endpointId ? { deliveryId, endpointId: options.endpointId } : { deliveryId },
      { jobId, delayMs: options.delayMs },
    );
  }

  /** When the oldest wake still waiting in the queue was ready to run; null when none waits. */
  oldestWaiting(): Promise<Date | null> {
    return this.jobs.oldestWaiting(DELIVERY_QUEUE);
  }

  /** Wakes the first attempts of one event's deliveries with one job (named after the first: the same wake added twice is one job). */
  async wakeFirst(deliveries: ReadonlyArray<{ id: string; endpointId: string }>): Promise<void> {
    if (deliveries.length === 0) return;
    const [first, ...others] = deliveries;
    await this.jobs.add(
      DELIVERY_QUEUE,
      {
        deliveryId: first.id,
        endpointId: first.endpointId,
        ...(others.length ? { others: others.map((d) => ({ deliveryId: d.id, endpointId: d.endpointId })) } : {}),
      },
      { jobId: `${first.id}:1` },
    );
  }
}
