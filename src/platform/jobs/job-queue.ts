import { Logger } from '@nestjs/common';
import type { QueueDefinition } from './queue-definition';

/**
 * The queues a backend runs, by name: the service's list (app/queues.ts), where tests may put
 * a faster schedule in place of a queue's own.
 */
export type QueueDefinitions = ReadonlyMap<string, QueueDefinition<unknown>>;
export const QUEUE_DEFINITIONS = Symbol('QUEUE_DEFINITIONS');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each queue has its own payload type
export function queueDefinitions(list: ReadonlyArray<QueueDefinition<any>>): QueueDefinitions {
  return new Map(list.map((q) => [q.name, q as QueueDefinition<unknown>]));
}

export interface EnqueueOptions {
  /** A deterministic id: adding a job whose id is already known is a no-op (deduplication). */
  jobId?: string;
  /** Run no sooner than this many milliseconds from now. */
  delayMs?: number;
}

/** How many jobs of one queue are in each state (the metrics' queue depth). */
export interface QueueCounts {
  queue: string;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

/** What a queue's processor implements. */
export interface JobProcessor<T> {
  /** Does the work of one job; throwing fails this try (retried on the queue's schedule). */
  process(data: T, attempt: number): Promise<void>;
  /** Called once when a job has failed for good: its last try failed, or its payload was invalid. */
  onFinalFailure?(data: unknown, error: Error): Promise<void>;
}

/** The queue's backend (Redis) does not answer: the job was not enqueued. */
export class JobQueueUnavailableError extends Error {}

/** A payload that does not match its queue's type: never retried. */
export class InvalidJobPayloadError extends Error {}

/**
 * Where jobs go: Bull on Redis (REDIS_URL), or the in-process runner of the embedded
 * default. Both take the attempts, backoff schedule and concurrency from the queue's
 * definition, validate the payload when a job is taken, and call the final-failure hook.
 * Only processors (registered in the worker) call `process()`.
 */
export abstract class JobQueue {
  abstract add<T>(queue: QueueDefinition<T>, data: T, options?: EnqueueOptions): Promise<void>;
  abstract process<T>(queue: QueueDefinition<T>, processor: JobProcessor<T>): void;
  /** Each queue's jobs by state, read now. */
  abstract counts(): Promise<QueueCounts[]>;
  /**
   * When the job next in line of the queue (the oldest waiting, not delayed) became ready to
   * run; null when none waits. Jobs ready later than that have not been taken yet.
   */
  abstract oldestWaiting(queue: QueueDefinition<unknown>): Promise<Date | null>;
  /** Resolves when no job is waiting or running (tests, graceful shutdown). */
  abstract drain(timeoutMs?: number): Promise<void>;
}

const logger = new Logger('Jobs');

/**
 * One try of one job, the same on both backends: validate the payload, run, and on the last
 * failed try (or an invalid payload) call the final-failure hook. Rethrows so the backend
 * schedules the retry.
 */
export async function runJob<T>(
  definition: QueueDefinition<T>,
  processor: JobProcessor<T>,
  raw: unknown,
  attempt: number,
): Promise<void> {
  const queue = definition.name;
  const parsed = definition.payload.safeParse(raw);
  if (!parsed.success) {
    const error = new InvalidJobPayloadError(
      `invalid ${queue} job payload: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
    await finalFailure(queue, processor, raw, error);
    throw error;
  }
  try {
    await processor.process(parsed.data, attempt);
  } catch (err) {
    const error = err instanceof Error ? err : new Error(String(err));
    if (attempt >= definition.attempts) await finalFailure(queue, processor, raw, error);
    throw error;
  }
}

async function finalFailure<T>(queue: string, processor: JobProcessor<T>, raw: unknown, error: Error): Promise<void> {
  logger.error(`${queue} job failed for good: ${error.message}`);
  try {
    await processor.onFinalFailure?.(raw, error);
  } catch (hookError) {
    logger.error(`${queue} final-failure hook failed: ${(hookError as Error).message}`);
  }
}
