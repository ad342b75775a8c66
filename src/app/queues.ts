import type { z } from 'zod';
import { DETECTION_CHECK_QUEUE } from '../events/monitoring/checks/detection-check.queue';
import { FEED_POLL_QUEUE } from '../events/monitoring/feeds/feed-poll.queue';
import { PROBE_QUEUE } from '../status/probe/probe.queue';
import { DELIVERY_QUEUE } from '../events/webhooks/delivery/delivery.queue';

/** THE queues of the service: name → definition (payload type, retries, concurrency). A new queue is one line here. */
export const QUEUES = {
  probe: PROBE_QUEUE,
  'detection-check': DETECTION_CHECK_QUEUE,
  'feed-poll': FEED_POLL_QUEUE,
  delivery: DELIVERY_QUEUE,
} as const;

export type QueueName = keyof typeof QUEUES;
export type QueuePayload<N extends QueueName> = z.infer<(typeof QUEUES)[N]['payload']>;
export const QUEUE_NAMES = Object.keys(QUEUES) as QueueName[];
