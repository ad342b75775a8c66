import { queueDefinitions } from '../platform/jobs/job-queue';
import { DETECTION_CHECK_QUEUE } from '../events/monitoring/checks/detection-check.queue';
import { FEED_POLL_QUEUE } from '../events/monitoring/feeds/feed-poll.queue';
import { DELIVERY_QUEUE } from '../events/webhooks/delivery/delivery.queue';
import { PROBE_QUEUE } from '../status/probe/probe.queue';

/** THE queues of the service (payload type, retries, concurrency). A new queue is one line here. */
export const QUEUES = queueDefinitions([PROBE_QUEUE, DETECTION_CHECK_QUEUE, FEED_POLL_QUEUE, DELIVERY_QUEUE]);
