import { z } from 'zod';
import type { QueueDefinition } from '../../../platform/jobs/queue-definition';
import { COUNTRY_CODES } from '../../../registers/registers';

export const detectionCheckJobSchema = z.union([
  z.object({
    country: z.enum(COUNTRY_CODES),
    /** The lease the scheduler took on these companies: only its holder applies a result. */
    leaseToken: z.string().regex(/^[rc]\.[\w-]{8,40}$/),
    entityIds: z
      .array(z.string().regex(/^ent_[a-z]{2}_[0-9A-Z-]{1,20}$/))
      .min(1)
      .max(100),
  }),
  z.object({
    country: z.enum(COUNTRY_CODES),
    /** Confirm the quiet companies of a feed register up to where its feed was read (ISO time). */
    confirmQuietUpTo: z.string().datetime(),
  }),
]);
export type DetectionCheckJob = z.infer<typeof detectionCheckJobSchema>;

/**
 * A batch of claimed companies of one register to check. Not retried: a company whose check
 * did not finish keeps its lease until it lapses, and is claimed again then.
 */
export const DETECTION_CHECK_QUEUE: QueueDefinition<DetectionCheckJob> = {
  name: 'detection-check',
  payload: detectionCheckJobSchema,
  attempts: 1,
  backoffMs: [],
  // Jobs mostly wait on the registers (each paced by its own limiter): several at once per process.
  concurrency: 8,
};
