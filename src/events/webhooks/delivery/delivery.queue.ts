import { z } from 'zod';
import type { QueueDefinition } from '../../../platform/jobs/queue-definition';

export const deliveryJobSchema = z.object({
  deliveryId: z.string().regex(/^dlv_[0-9A-Za-z]{22}$/),
  /**
   * The delivery's endpoint, when the waker knew it: a worker already draining that endpoint
   * then takes the wake as a nudge to look again, without a database round trip. Optional:
   * jobs enqueued before it existed, and wakes that do not know it, are looked up.
   */
  endpointId: z
    .string()
    .regex(/^we_[0-9A-Za-z]{22}$/)
    .optional(),
  /**
   * The event's other deliveries, when the publisher woke all of them with one job: an event
   * sent to several endpoints is one job to take, not one per endpoint.
   */
  others: z
    .array(
      z.object({
        deliveryId: z.string().regex(/^dlv_[0-9A-Za-z]{22}$/),
        endpointId: z.string().regex(/^we_[0-9A-Za-z]{22}$/),
      }),
    )
    .max(10_000)
    .optional(),
});
export type DeliveryJob = z.infer<typeof deliveryJobSchema>;

/**
 * A delivery job only wakes a worker for one delivery row (or for each of an event's): the row (state, next attempt,
 * lease) is the truth, so a job is never retried by the queue (attempts 1): retries are rows
 * due again and a delayed job to wake them. Jobs are I/O-bound: many run at once per process;
 * the per-endpoint limit is enforced in the database, across workers.
 */
export const DELIVERY_QUEUE: QueueDefinition<DeliveryJob> = {
  name: 'delivery',
  payload: deliveryJobSchema,
  attempts: 1,
  backoffMs: [],
  concurrency: 32,
};
