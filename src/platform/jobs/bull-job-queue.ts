import { BeforeApplicationShutdown, Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import type { QueueDefinition } from './queue-definition';
import {
  EnqueueOptions,
  InvalidJobPayloadError,
  JobProcessor,
  JobQueue,
  JobQueueUnavailableError,
  QueueCounts,
  QueueDefinitions,
  runJob,
} from './job-queue';
import type { RedisHealth } from '../redis/redis-health.service';

/** Longest a caller waits for Redis to accept a job. */
const ADD_TIMEOUT_MS = 1_000;

/** Name of the Bull backoff strategy that follows each queue's `backoffMs` schedule. */
export const SCHEDULE_BACKOFF = 'schedule';

/** Jobs on Bull (Redis): shared by every worker replica; ids deduplicate across processes. */
export class BullJobQueue extends JobQueue implements BeforeApplicationShutdown {
  private readonly logger = new Logger(BullJobQueue.name);

  constructor(
    private readonly queues: ReadonlyMap<string, Queue>,
    private readonly definitions: QueueDefinitions,
    private readonly health?: RedisHealth,
  ) {
    super();
  }

  /**
   * Adds a job, or fails within ADD_TIMEOUT_MS with JobQueueUnavailableError when Redis does
   * not answer (at once while the breaker is open): a caller is never held by a dead Redis.
   * Nothing that matters is lost: probes are enqueued again by their schedule, deliveries live
   * in the database outbox and their sweeper enqueues them again.
   */
  async add<T>(definition: QueueDefinition<T>, data: T, options: EnqueueOptions = {}): Promise<void> {
    const queue = definition.name;
    if (this.health && !this.health.isUp())
      throw new JobQueueUnavailableError(`Redis is not answering: ${queue} job not enqueued`);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new JobQueueUnavailableError(`Redis did not accept the ${queue} job within ${ADD_TIMEOUT_MS} ms`)),
        ADD_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([this.enqueue(queue, data, options), timeout]);
    } catch (err) {
      if (!(err instanceof JobQueueUnavailableError)) this.health?.reportFailure(err as Error);
      throw err instanceof JobQueueUnavailableError
        ? err
        : new JobQueueUnavailableError(`${queue} job not enqueued: ${(err as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }

  private async enqueue(queue: string, data: unknown, options: EnqueueOptions): Promise<void> {
    await this.queue(queue).add(data, {
      jobId: options.jobId,
      delay: options.delayMs,
      attempts: this.definition(queue).attempts,
      backoff: { type: SCHEDULE_BACKOFF },
      // Completed jobs are kept a day so that their ids keep deduplicating late adds.
      removeOnComplete: { age: 86_400, count: 10_000 },
      removeOnFail: { age: 7 * 86_400 },
    });
  }

  process<T>(definition: QueueDefinition<T>, processor: JobProcessor<T>): void {
    const queue = definition.name;
    const bull = this.queue(queue);
    const runBy = this.definition(queue) as QueueDefinition<T>;
    void bull.process(runBy.concurrency, async (job) => {
      try {
        await runJob(runBy, processor, job.data, job.attemptsMade + 1);
      } catch (err) {
        if (err instanceof InvalidJobPayloadError) await job.discard();
        throw err;
      }
    });
    bull.on('failed', (job, err) =>
      this.logger.warn(
        `${queue} job ${job.id} failed (attempt ${job.attemptsMade}/${job.opts.attempts ?? 1}): ${err.message}`,
      ),
    );
  }

  /** From Redis, so the same in every process: waiting, active and delayed across every worker; failed for good, kept 7 days. */
  async counts(): Promise<QueueCounts[]> {
    if (this.health && !this.health.isUp()) throw new JobQueueUnavailableError('Redis is not answering');
    return Promise.all(
      [...this.queues].map(async ([queue, bull]) => {
        const c = await bull.getJobCounts();
        return { queue, waiting: c.waiting, active: c.active, delayed: c.delayed, failed: c.failed };
      }),
    );
  }

  async oldestWaiting(definition: QueueDefinition<unknown>): Promise<Date | null> {
    if (this.health && !this.health.isUp()) throw new JobQueueUnavailableError('Redis is not answering');
    // The tail of the wait list is the next job taken. A delayed job waits from its delay's end.
    const [next] = await this.queue(definition.name).getJobs(['waiting'], 0, 0, true);
    return next ? new Date(next.timestamp + (next.opts.delay ?? 0)) : null;
  }

  async drain(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      let busy = 0;
      for (const name of this.queues.keys()) {
        const counts = await this.queue(name).getJobCounts();
        busy += counts.waiting + counts.active + counts.delayed;
      }
      if (busy === 0) return;
      if (Date.now() > deadline) throw new Error('jobs did not finish in time');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    // Before the database closes: let running jobs finish (a deploy stops workers
    // gracefully), then close the Redis connections.
    await Promise.all(
      [...this.queues.keys()].map((name) =>
        this.queue(name)
          .close()
          .catch(() => undefined),
      ),
    );
  }

  private queue(name: string): Queue {
    const queue = this.queues.get(name);
    if (!queue) throw new Error(`no queue named ${name} is registered (app/queues.ts)`);
    return queue;
  }

  private definition(name: string): QueueDefinition<unknown> {
    return this.definitions.get(name)!;
  }
}
