import { BeforeApplicationShutdown, Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { QueueDefinition, retryDelayMs } from './queue-definition';
import {
  EnqueueOptions,
  InvalidJobPayloadError,
  JobProcessor,
  JobQueue,
  QUEUE_DEFINITIONS,
  QueueCounts,
  QueueDefinitions,
  runJob,
} from './job-queue';

interface PendingJob {
  data: unknown;
  attempt: number;
  /** When it was put in line to run (ms since the epoch). */
  readyAt?: number;
}

const SEEN_IDS_KEPT = 10_000;

/**
 * The job runner of the embedded default: same contract as Bull (ids deduplicate, attempts
 * and backoff from the queue's definition, payloads validated when taken), in this process,
 * nothing persisted — what must survive a restart lives in the database (the outbox) and is
 * re-enqueued by its sweeper. Jobs added before their processor is registered wait for it.
 */
@Injectable()
export class InProcessJobQueue extends JobQueue implements BeforeApplicationShutdown {
  private readonly logger = new Logger(InProcessJobQueue.name);
  private readonly processors = new Map<string, JobProcessor<unknown>>();
  private readonly waiting = new Map<string, PendingJob[]>();
  private readonly running = new Map<string, number>();
  /** Each queue's definition as jobs run by it: the configured one, or the one a caller named. */
  private readonly runBy = new Map<string, QueueDefinition<unknown>>();
  private readonly seenIds = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Per queue: jobs waiting for their delay or retry, and jobs failed for good since the start. */
  private readonly delayed = new Map<string, number>();
  private readonly failed = new Map<string, number>();
  private active = 0;
  private idleWaiters: Array<() => void> = [];
  private stopped = false;

  constructor(@Optional() @Inject(QUEUE_DEFINITIONS) private readonly definitions: QueueDefinitions = new Map()) {
    super();
  }

  async add<T>(definition: QueueDefinition<T>, data: T, options: EnqueueOptions = {}): Promise<void> {
    if (this.stopped) return;
    const queue = this.know(definition);
    if (options.jobId) {
      const key = `${queue}:${options.jobId}`;
      if (this.seenIds.has(key)) return;
      this.seenIds.add(key);
      if (this.seenIds.size > SEEN_IDS_KEPT) this.seenIds.delete(this.seenIds.values().next().value as string);
    }
    const job = { data, attempt: 1 };
    if (options.delayMs && options.delayMs > 0) this.later(queue, job, options.delayMs);
    else this.enqueue(queue, job);
  }

  process<T>(definition: QueueDefinition<T>, processor: JobProcessor<T>): void {
    const queue = this.know(definition);
    this.processors.set(queue, processor as JobProcessor<unknown>);
    this.pump(queue);
  }

  private know(definition: QueueDefinition<unknown>): string {
    if (!this.runBy.has(definition.name))
      this.runBy.set(definition.name, this.definitions.get(definition.name) ?? definition);
    return definition.name;
  }

  /** This process's jobs: nothing else sees them. `failed` counts the jobs failed for good since the start. */
  counts(): Promise<QueueCounts[]> {
    const names = new Set([...this.definitions.keys(), ...this.runBy.keys()]);
    return Promise.resolve(
      [...names].map((queue) => ({
        queue,
        waiting: this.waiting.get(queue)?.length ?? 0,
        active: this.running.get(queue) ?? 0,
        delayed: this.delayed.get(queue) ?? 0,
        failed: this.failed.get(queue) ?? 0,
      })),
    );
  }

  oldestWaiting(definition: QueueDefinition<unknown>): Promise<Date | null> {
    const next = this.waiting.get(definition.name)?.[0];
    return Promise.resolve(next?.readyAt === undefined ? null : new Date(next.readyAt));
  }

  async drain(timeoutMs = 30_000): Promise<void> {
    if (this.active === 0) return;
    await Promise.race([
      new Promise<void>((resolve) => this.idleWaiters.push(resolve)),
      new Promise<void>((_, reject) =>
        setTimeout(() => reject(new Error('jobs did not finish in time')), timeoutMs).unref(),
      ),
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
    this.delayed.clear();
    for (const list of this.waiting.values()) this.active -= list.splice(0).length;
    await this.drain(10_000).catch(() => this.logger.warn('shutting down with jobs still running'));
  }

  private later(queue: string, job: PendingJob, delayMs: number): void {
    this.active++;
    this.delayed.set(queue, (this.delayed.get(queue) ?? 0) + 1);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.delayed.set(queue, (this.delayed.get(queue) ?? 1) - 1);
      this.active--;
      this.enqueue(queue, job);
    }, delayMs);
    this.timers.add(timer);
  }

  private enqueue(queue: string, job: PendingJob): void {
    const list = this.waiting.get(queue) ?? [];
    job.readyAt = Date.now();
    list.push(job);
    this.waiting.set(queue, list);
    this.active++;
    setImmediate(() => this.pump(queue));
  }

  private pump(queue: string): void {
    const processor = this.processors.get(queue);
    const list = this.waiting.get(queue);
    if (!processor || !list) return;
    const concurrency = this.runBy.get(queue)!.concurrency;
    while (list.length > 0 && (this.running.get(queue) ?? 0) < concurrency) {
      const job = list.shift()!;
      this.running.set(queue, (this.running.get(queue) ?? 0) + 1);
      void this.run(queue, processor, job);
    }
  }

  private async run(queue: string, processor: JobProcessor<unknown>, job: PendingJob): Promise<void> {
    const definition = this.runBy.get(queue)!;
    try {
      await runJob(definition, processor, job.data, job.attempt);
    } catch (err) {
      if (!(err instanceof InvalidJobPayloadError) && job.attempt < definition.attempts && !this.stopped) {
        const delay = retryDelayMs(definition, job.attempt);
        this.logger.warn(
          `${queue} job failed (attempt ${job.attempt}/${definition.attempts}); retrying in ${delay} ms: ${(err as Error).message}`,
        );
        this.later(queue, { ...job, attempt: job.attempt + 1 }, delay);
      } else if (!this.stopped) {
        this.failed.set(queue, (this.failed.get(queue) ?? 0) + 1);
      }
    } finally {
      this.running.set(queue, (this.running.get(queue) ?? 1) - 1);
      setImmediate(() => this.pump(queue));
    }
    this.finished();
  }

  private finished(): void {
    this.active--;
    if (this.active === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      waiters.forEach((w) => w());
    }
  }
}
