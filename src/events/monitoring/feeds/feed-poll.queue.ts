import { z } from 'zod';
import type { QueueDefinition } from '../../../platform/jobs/queue-definition';
import { COUNTRY_CODES } from '../../../registers/registers';

export const feedPollJobSchema = z.object({
  country: z.enum(COUNTRY_CODES),
  /** ISO start of the poll slot (one poll per feed per slot, whatever the number of workers). */
  slotStart: z.string().datetime(),
});
export type FeedPollJob = z.infer<typeof feedPollJobSchema>;

/** One poll of a register's change feed; a failed poll is simply the next slot's work. */
export const FEED_POLL_QUEUE: QueueDefinition<FeedPollJob> = {
  name: 'feed-poll',
  payload: feedPollJobSchema,
  attempts: 1,
  backoffMs: [],
  concurrency: 4,
};
