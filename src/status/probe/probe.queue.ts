import { z } from 'zod';
import { SOURCE_IDS } from '../../registers/source-id';
import type { QueueDefinition } from '../../platform/jobs/queue-definition';

export const probeJobSchema = z.object({
  /** The register's country code, or LEI for GLEIF's index. */
  country: z.enum(SOURCE_IDS),
  /** ISO timestamp of the slot's start. */
  slotStart: z.string().datetime(),
});
export type ProbeJob = z.infer<typeof probeJobSchema>;

/** One probe per register per slot; a failed probe is tried once more soon (the slot is claimed only once). */
export const PROBE_QUEUE: QueueDefinition<ProbeJob> = {
  name: 'probe',
  payload: probeJobSchema,
  attempts: 2,
  backoffMs: [2_000],
  concurrency: 6,
};
