import { BeforeApplicationShutdown, Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import {
  DEFAULT_QUEUE_DEFINITIONS,
  EnqueueOptions,
  InvalidJobPayloadError,
  JobProcessor,
  JobQueue,
  JobQueueUnavailableError,
  QueueDefinitions,
  runJob,
} from './job-queue';
import { QueueName, QUEUE_NAMES } from '../../app/queues';
import type { RedisHealth } from '../redis/redis-health.service';

/** Longest a caller waits for Redis to accept a job. */
const ADD_TIMEOUT_MS = 1_000;

/** Name of the Bull backoff strategy that follows each queue's `backoffMs` schedule. */
export const SCHEDULE_BACKOFF = 'schedule';

/** Jobs on Bull (Redis): shared by every worker replica; ids deduplicate across processes. */
export class BullJobQueue extends JobQueue implements BeforeApplicationShutdown {
  private readonly logger = new Logger(BullJobQueue.name);

  constructor(
    private readonly queues: ReadonlyMap<QueueName, Queue>,
    private readonly health?: RedisHealth,
    private readonly definitions: QueueDefinitions = DEFAULT_QUEUE_DEFINITIONS,
  ) {
    super();
  }

  /**
   * Adds a job, or fails within ADD_TIMEOUT_MS with JobQueueUnavailableError when Redis does
   * not answer (at once while the breaker is open): a caller is never held by a dead Redis.
   * Nothing that matters is lost: probes are enqueued again by their schedule, deliveries live
   * in the database outbox and their sweeper enqueues them again.
   */
  async add<N extends QueueName>(queue: N, data: unknown, options: EnqueueOptions = {}): Promise<void> {
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

  private async enqueue(queue: QueueName, data: unknown, options: EnqueueOptions): Promise<void> {
    await this.queue(queue).add(data, {
      jobId: options.jobId,
      delay: options.delayMs,
      attempts: this.definitions[queue].attempts,
      backoff: { type: SCHEDULE_BACKOFF },
      // Completed jobs are kept a day so that their ids keep deduplicating late adds.
      removeOnComplete: { age: 86_400, count: 10_000 },
      removeOnFail: { age: 7 * 86_400 },
    });
  }

  process<N extends QueueName>(queue: N, processor: JobProcessor<N>): void {
    const bull = this.queue(queue);
    void bull.process(this.definitions[queue].concurrency, async (job) => {
      try {
        await runJob(queue, this.definitions[queue], processor, job.data, job.attemptsMade + 1);
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

  async drain(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      let busy = 0;
      for (const name of QUEUE_NAMES) {
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
      QUEUE_NAMES.map((name) =>
        this.queue(name)
          .close()
          .catch(() => undefined),
      ),
    );
  }

  private queue(name: QueueName): Queue {
    return this.queues.get(name)!;
  }
}
