/** The queues of the service. A later queue is added here, and nowhere else. */
export const QUEUE_NAMES = ['probe'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export interface EnqueueOptions {
  /** A deterministic id: adding a job whose id is already known is a no-op (deduplication). */
  jobId?: string;
  /** Total tries, the first included. */
  attempts?: number;
  /** First retry delay; doubles each time. */
  backoffMs?: number;
}

export type JobHandler<T> = (data: T, attempt: number) => Promise<void>;

/**
 * Where jobs go: Bull on Redis (REDIS_URL), or the in-process runner of the embedded
 * default. Both honour job ids, attempts and exponential backoff the same way. Processors
 * register handlers with `process()`; only the worker (and the all-in-one process) does.
 */
export abstract class JobQueue {
  abstract add<T extends object>(queue: QueueName, data: T, options?: EnqueueOptions): Promise<void>;
  abstract process<T extends object>(queue: QueueName, handler: JobHandler<T>, concurrency?: number): void;
  /** Resolves when no job is waiting or running (tests, graceful shutdown). */
  abstract drain(timeoutMs?: number): Promise<void>;
}
