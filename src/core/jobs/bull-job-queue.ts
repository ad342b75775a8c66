import { getQueueToken } from '@nestjs/bull';
import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bull';
import { EnqueueOptions, JobHandler, JobQueue, QUEUE_NAMES, QueueName } from './job-queue';

/** Jobs on Bull (Redis): shared by every worker replica; ids deduplicate across processes. */
@Injectable()
export class BullJobQueue extends JobQueue implements BeforeApplicationShutdown {
  private readonly logger = new Logger(BullJobQueue.name);
  private readonly processing = new Set<QueueName>();

  constructor(private readonly moduleRef: ModuleRef) {
    super();
  }

  async add<T extends object>(queue: QueueName, data: T, options: EnqueueOptions = {}): Promise<void> {
    await this.queue(queue).add(data, {
      jobId: options.jobId,
      attempts: options.attempts ?? 1,
      backoff: { type: 'exponential', delay: options.backoffMs ?? 1_000 },
      // Completed jobs are kept a day so that their ids keep deduplicating late adds.
      removeOnComplete: { age: 86_400, count: 10_000 },
      removeOnFail: { age: 7 * 86_400 },
    });
  }

  process<T extends object>(queue: QueueName, handler: JobHandler<T>, concurrency = 1): void {
    this.processing.add(queue);
    void this.queue(queue).process(concurrency, async (job) => {
      await handler(job.data as T, job.attemptsMade + 1);
    });
    this.queue(queue).on('failed', (job, err) =>
      this.logger.warn(`${queue} job ${job.id} failed (attempt ${job.attemptsMade}/${job.opts.attempts ?? 1}): ${err.message}`),
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
    await Promise.all(QUEUE_NAMES.map((name) => this.queue(name).close().catch(() => undefined)));
  }

  private queue(name: QueueName): Queue {
    return this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
  }
}
