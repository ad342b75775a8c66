import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { EnqueueOptions, JobHandler, JobQueue, QueueName } from './job-queue';

interface PendingJob {
  data: object;
  attempt: number;
  options: Required<Pick<EnqueueOptions, 'attempts' | 'backoffMs'>> & EnqueueOptions;
}

const SEEN_IDS_KEPT = 10_000;

/**
 * The job runner of the embedded default: same contract as Bull (ids deduplicate, attempts
 * with exponential backoff), in this process, nothing persisted. Jobs added before their
 * handler is registered wait for it.
 */
@Injectable()
export class InProcessJobQueue extends JobQueue implements BeforeApplicationShutdown {
  private readonly logger = new Logger(InProcessJobQueue.name);
  private readonly handlers = new Map<QueueName, { handler: JobHandler<object>; concurrency: number }>();
  private readonly waiting = new Map<QueueName, PendingJob[]>();
  private readonly running = new Map<QueueName, number>();
  private readonly seenIds = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private active = 0;
  private idleWaiters: Array<() => void> = [];
  private stopped = false;

  async add<T extends object>(queue: QueueName, data: T, options: EnqueueOptions = {}): Promise<void> {
    if (this.stopped) return;
    if (options.jobId) {
      const key = `${queue}:${options.jobId}`;
      if (this.seenIds.has(key)) return;
      this.seenIds.add(key);
      if (this.seenIds.size > SEEN_IDS_KEPT) this.seenIds.delete(this.seenIds.values().next().value as string);
    }
    this.enqueue(queue, { data, attempt: 1, options: { attempts: 1, backoffMs: 1_000, ...options } });
  }

  process<T extends object>(queue: QueueName, handler: JobHandler<T>, concurrency = 1): void {
    this.handlers.set(queue, { handler: handler as JobHandler<object>, concurrency });
    this.pump(queue);
  }

  async drain(timeoutMs = 30_000): Promise<void> {
    if (this.isIdle()) return;
    await Promise.race([
      new Promise<void>((resolve) => this.idleWaiters.push(resolve)),
      new Promise<void>((_, reject) => setTimeout(() => reject(new Error('jobs did not finish in time')), timeoutMs).unref()),
    ]);
  }

  /**
   * Before the database closes (that happens in onApplicationShutdown): take no new job,
   * drop the ones not started, and let the running ones finish.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    // A job waiting for its retry, or not started, counts as active until it runs: drop them.
    for (const t of this.timers) clearTimeout(t);
    this.active -= this.timers.size;
    this.timers.clear();
    for (const list of this.waiting.values()) this.active -= list.splice(0).length;
    await this.drain(10_000).catch(() => this.logger.warn('shutting down with jobs still running'));
  }

  private enqueue(queue: QueueName, job: PendingJob): void {
    const list = this.waiting.get(queue) ?? [];
    list.push(job);
    this.waiting.set(queue, list);
    this.active++;
    setImmediate(() => this.pump(queue));
  }

  private pump(queue: QueueName): void {
    const registered = this.handlers.get(queue);
    const list = this.waiting.get(queue);
    if (!registered || !list) return;
    while (list.length > 0 && (this.running.get(queue) ?? 0) < registered.concurrency) {
      const job = list.shift()!;
      this.running.set(queue, (this.running.get(queue) ?? 0) + 1);
      void this.run(queue, registered.handler, job);
    }
  }

  private async run(queue: QueueName, handler: JobHandler<object>, job: PendingJob): Promise<void> {
    try {
      await handler(job.data, job.attempt);
    } catch (err) {
      if (job.attempt < job.options.attempts && !this.stopped) {
        const delay = job.options.backoffMs * 2 ** (job.attempt - 1);
        this.logger.warn(`${queue} job failed (attempt ${job.attempt}/${job.options.attempts}); retrying in ${delay} ms: ${(err as Error).message}`);
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          this.active--;
          this.enqueue(queue, { ...job, attempt: job.attempt + 1 });
        }, delay);
        this.timers.add(timer);
        return;
      }
      this.logger.error(`${queue} job failed for good after ${job.attempt} attempt(s): ${(err as Error).message}`);
    } finally {
      this.running.set(queue, (this.running.get(queue) ?? 1) - 1);
      setImmediate(() => this.pump(queue));
    }
    this.finished();
  }

  private finished(): void {
    this.active--;
    if (this.isIdle()) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      waiters.forEach((w) => w());
    }
  }

  private isIdle(): boolean {
    return this.active === 0;
  }
}
