import { BeforeApplicationShutdown, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Clock } from '../../../platform/clock';
import { AppConfig } from '../../../platform/config/app-config';
import { JobProcessor, JobQueue } from '../../../platform/jobs/job-queue';
import { Deliverer } from './deliverer.service';
import { DELIVERY_QUEUE, DeliveryJob } from './delivery.queue';
import { DeliveryQueue } from './delivery-queue.service';
import { ClaimedDelivery } from './delivery-store';

/** Longest a drain waits for more of its slots to free before claiming for the ones that are. */
const CLAIM_GATHER_MS = 2;

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** How much one job sends for an endpoint before yielding to the jobs queued behind it. */
const DRAIN_BUDGET = { deliveries: 100, ms: 10_000 };

/**
 * The worker's request slots (WEBHOOK_WORKER_CONCURRENCY): a request holds one until it is
 * answered or times out. Drains take what is free; a wake-up that needs one waits in line, and
 * a released slot is handed to the first in line — not announced to every waiter, who would
 * all wake for one slot (with many waiting, that herd cost more CPU than the deliveries).
 */
class RequestSlots {
  private used = 0;
  private readonly waiters: Array<{ want: number; resolve: (taken: number) => void }> = [];

  constructor(private readonly size: number) {}

  /** Takes up to n free slots, unless others wait in line; how many. */
  take(n: number): number {
    if (this.waiters.length > 0) return 0;
    const taken = Math.max(0, Math.min(n, this.size - this.used));
    this.used += taken;
    return taken;
  }

  /** Slots free now. */
  get free(): number {
    return this.size - this.used;
  }

  /** Whether fewer than half are free. */
  get scarce(): boolean {
    return this.free < this.size / 2;
  }

  /** Up to `want()` slots (at least one), once free: the caller holds them and releases them. */
  acquire(want: () => number): Promise<number> {
    const taken = this.take(want());
    if (taken > 0) return Promise.resolve(taken);
    return new Promise((resolve) => this.waiters.push({ want: want(), resolve }));
  }

  release(n = 1): void {
    this.used -= n;
    while (this.waiters.length > 0 && this.used < this.size) {
      const w = this.waiters.shift()!;
      const taken = Math.min(w.want, this.size - this.used);
      this.used += taken;
      w.resolve(taken);
    }
  }
}

/** An endpoint this process is draining: wake-ups for it only ask the drain to look again. */
interface Drain {
  /** Set by a wake-up; the drain claims again before it stops. */
  poked: boolean;
  /** Cuts short the drain's wait for its requests in flight (set while it waits). */
  signal?: () => void;
}

/**
 * Takes delivery jobs. A job wakes the worker for one delivery (or for each of an event's,
 * side by side, when the publisher woke them together). If this process is already
 * draining that delivery's endpoint, the job only tells the drain to look again — no database
 * round trip: in a backlog nearly every wake-up is one of those. Otherwise, if the delivery
 * can be claimed (a cheap look first: it may be sent already, or the endpoint full), the job
 * works through the endpoint's due deliveries, oldest first, keeping up to
 * WEBHOOK_ENDPOINT_CONCURRENCY requests in flight — the limit is counted in the database
 * across every worker — and claiming several at once when several slots are free. After a
 * bounded while it hands the rest to a new job at the back of the queue, so other endpoints
 * get their turn. Worker only.
 *
 * A job only starts the drain: it ends once the drain's first claim is made, and the drain
 * goes on without it. A job slot is never held by a request, so an endpoint that hangs holds
 * its own endpoint slots and the worker's request slots they take (WEBHOOK_WORKER_CONCURRENCY),
 * never the queue's. A wake-up waits for a free request slot only when the worker has none
 * (the queue's natural back-pressure); one whose endpoint is full or whose circuit is open
 * costs a look and is dropped — the endpoint's drain, the probe's wake or the sweeper has it.
 */
@Injectable()
export class DeliveryProcessor
  implements OnModuleInit, OnModuleDestroy, BeforeApplicationShutdown, JobProcessor<DeliveryJob>
{
  private readonly logger = new Logger(DeliveryProcessor.name);
  private readonly draining = new Map<string, Drain>();
  /** Drains running apart from the jobs that started them. */
  private readonly drains = new Set<Promise<void>>();
  private readonly slots: RequestSlots;
  private stopping = false;

  constructor(
    private readonly jobs: JobQueue,
    private readonly deliverer: Deliverer,
    private readonly queue: DeliveryQueue,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {
    this.slots = new RequestSlots(config.webhooks.workerConcurrency);
  }

  onModuleInit(): void {
    this.jobs.process(DELIVERY_QUEUE, this);
  }

  /** Shutdown: finish the attempts in hand, claim no more (the sweeper wakes them after a restart). */
  onModuleDestroy(): void {
    this.stopping = true;
    this.draining.forEach((d) => d.signal?.());
  }

  /** Waits for the drains' attempts and outcomes (before the outbound client and the database close). */
  async beforeApplicationShutdown(): Promise<void> {
    while (this.drains.size > 0) await Promise.allSettled([...this.drains]);
  }

  async process(job: DeliveryJob): Promise<void> {
    if (!job.others?.length) return this.wakeOne(job);
    // An event's deliveries: each to its own endpoint, drained side by side.
    const results = await Promise.allSettled([job, ...job.others].map((one) => this.wakeOne(one)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private async wakeOne(job: { deliveryId: string; endpointId?: string }): Promise<void> {
    if (this.stopping) return;
    if (job.endpointId && this.poke(job.endpointId)) return;
    // A wake that names its endpoint goes straight to the endpoint's claim, which is batched
    // with every other claim of this process and costs one call when nothing is due; an older
    // job that does not name it is looked up first.
    let endpointId = job.endpointId;
    if (!endpointId) {
      const look = await this.deliverer.peek(job.deliveryId);
      if (!look?.claimable) return;
      endpointId = look.endpointId;
    }
    if (this.poke(endpointId)) return;
    // Request slots of this worker for the first claim: the job waits for one when all are
    // taken. When they are scarce, one: most wakes find one delivery due, and slots held
    // through a claim's round trip for deliveries that are not there are kept from the others.
    const taken = await this.slots.acquire(() => (this.slots.scarce ? 1 : this.config.webhooks.endpointConcurrency));
    if (this.stopping || this.poke(endpointId)) return this.slots.release(taken);
    // From here on this process drains the endpoint: registered before the claim's await, so
    // that wake-ups arriving meanwhile are folded into this drain.
    const drain: Drain = { poked: false };
    this.draining.set(endpointId, drain);
    let first: ClaimedDelivery[] = [];
    try {
      // The endpoint's oldest due deliveries: the woken one among them, or taken already.
      first = await this.deliverer.claim({ endpointId, max: taken });
    } catch (err) {
      this.draining.delete(endpointId); // the wake-ups folded in meanwhile are the sweeper's now
      throw err;
    } finally {
      if (taken > first.length) this.slots.release(taken - first.length);
    }
    if (first.length === 0 && !drain.poked) {
      this.draining.delete(endpointId);
      return;
    }
    // The drain goes on without the job (see the class comment).
    const id = endpointId;
    const running: Promise<void> = this.drain(id, drain, first)
      .catch((err: Error) => this.logger.error(`drain of endpoint ${id} failed: ${err.message}`))
      .finally(() => this.drains.delete(running));
    this.drains.add(running);
  }

  /** Tells this process's drain of the endpoint, if any, to look again; whether there was one. */
  private poke(endpointId: string): boolean {
    const drain = this.draining.get(endpointId);
    if (!drain) return false;
    drain.poked = true;
    drain.signal?.();
    return true;
  }

  private async drain(endpointId: string, drain: Drain, first: ClaimedDelivery[]): Promise<void> {
    // A slot is taken until its request is answered; the outcome is written after, while the
    // next request may already be on its way. The drain ends once every outcome is written.
    const running = new Set<Promise<unknown>>();
    const recording = new Set<Promise<unknown>>();
    // Each claim holds a worker slot, taken before the claim, until its request is answered.
    const track = (claim: ClaimedDelivery) => {
      let answered!: () => void;
      const slot = new Promise<void>((resolve) => (answered = resolve));
      void slot.then(() => this.slots.release());
      const run: Promise<unknown> = this.deliverer
        .run(claim, answered)
        .catch((err: Error) => this.logger.error(`delivery attempt failed: ${err.message}`))
        .finally(() => {
          recording.delete(run);
          answered();
        });
      recording.add(run);
      const tracked = slot.finally(() => running.delete(tracked));
      running.add(tracked);
    };
    first.forEach(track);
    let sent = first.length;
    const until = Date.now() + DRAIN_BUDGET.ms;
    let exhausted = false;
    // Once a claim comes back short, the endpoint had nothing more due: look again when a
    // wake-up says something new is due, or when the requests in hand are done (a final look).
    // After a full claim, more is presumably due: claim again as soon as a slot is free.
    let short = false;
    /** Slots handed to this drain while it had none in flight and waited in line for them. */
    let reserved = 0;
    try {
      for (;;) {
        const wanted = this.config.webhooks.endpointConcurrency - running.size;
        if (!this.stopping && !exhausted && wanted > 0 && (!short || drain.poked || running.size === 0)) {
          if (sent >= DRAIN_BUDGET.deliveries || Date.now() > until) exhausted = true;
          else {
            const free = reserved || this.slots.take(wanted);
            reserved = 0;
            if (free > 0) {
              drain.poked = false;
              // With requests in flight, never queue behind another claim for the endpoint.
              let claims: ClaimedDelivery[] = [];
              try {
                claims = await this.deliverer.claim({ endpointId, max: free, skipLocked: running.size > 0 });
              } finally {
                // The slots taken for deliveries the claim did not get.
                if (free > claims.length) this.slots.release(free - claims.length);
              }
              for (const c of claims) track(c);
              sent += claims.length;
              short = claims.length < free;
              if (claims.length === 0 && running.size === 0 && !drain.poked) break;
              continue;
            }
            // Every request slot of the worker is taken (or promised to those in line): with
            // requests of its own in flight, the drain claims again when one is answered;
            // without, it waits in line like a wake-up.
            if (running.size === 0) {
              reserved = await this.slots.acquire(() => this.config.webhooks.endpointConcurrency);
              if (this.stopping) {
                this.slots.release(reserved);
                reserved = 0;
              }
              continue;
            }
          }
        }
        if (running.size === 0) break;
        await Promise.race([...running, new Promise<void>((resolve) => (drain.signal = resolve))]);
        drain.signal = undefined;
        // Let every answer that came in the same turn free its slot, and claim for all of them at once.
        await nextTurn();
        // A claim is a round trip whatever its size: with only a slot or so free and more
        // requests about to finish, wait a moment for them and claim for several slots at once.
        const limit = this.config.webhooks.endpointConcurrency;
        if (running.size > 0 && limit - running.size < Math.ceil(limit / 2)) {
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([...running, new Promise((resolve) => (timer = setTimeout(resolve, CLAIM_GATHER_MS)))]);
          clearTimeout(timer);
          await nextTurn();
        }
      }
    } finally {
      // Synchronously with the decision to stop: a wake-up from now on starts a drain of its own.
      this.draining.delete(endpointId);
      if (reserved > 0) this.slots.release(reserved);
    }
    // The job is done when its outcomes are written (a shutdown waits for running jobs).
    await Promise.allSettled([...recording]);
    if (exhausted && !this.stopping) {
      const next = await this.deliverer.nextDue(endpointId, this.clock.now());
      if (next)
        await this.queue
          .wake(next.id, next.attempt + 1, { tag: `c${Date.now()}`, endpointId })
          .catch((err: Error) => this.logger.warn(`could not hand on endpoint ${endpointId}: ${err.message}`));
    }
  }
}
