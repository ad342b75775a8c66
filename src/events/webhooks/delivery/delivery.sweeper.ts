import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { Clock } from '../../../platform/clock';
import { AppConfig } from '../../../platform/config/app-config';
import { DeliveryQueue } from './delivery-queue.service';
import { DeliveryStore } from './delivery-store';

/** A delivery due for less than this is presumably still on its way through the queue. */
const GRACE_MS = 2_000;

/**
 * Every DELIVERY_SWEEP_INTERVAL_MS (and once at boot), wakes the deliveries that are due and
 * held by no one: their job was lost with a restarted Redis, a killed worker, or the stopped
 * embedded process whose in-process runner forgot its jobs. While the queue has a backlog, only
 * those it has gone past: the others would not have been reached yet anyway. It only enqueues;
 * the database claim makes a wake that turns out to be extra harmless. Worker only.
 */
@Injectable()
export class DeliverySweeper implements OnApplicationBootstrap {
  private readonly logger = new Logger(DeliverySweeper.name);

  constructor(
    private readonly store: DeliveryStore,
    private readonly queue: DeliveryQueue,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly scheduler: SchedulerRegistry,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const run = () =>
      void this.sweep().catch((err: Error) => this.logger.error(`delivery sweep failed: ${err.message}`));
    this.scheduler.addInterval('delivery-sweeper', setInterval(run, this.config.webhooks.sweepIntervalMs));
    run();
  }

  /** Wakes the stranded deliveries; returns how many. */
  async sweep(): Promise<number> {
    const now = this.clock.now();
    // While the queue works through a backlog, a delivery that became due after the oldest wake
    // still waiting may well be held by a wake behind it: only those due before it (which the
    // queue has gone past) are stranded. Without this, every sweep during a backlog woke a
    // thousand deliveries the queue already held.
    const next = await this.queue.oldestWaiting();
    const dueBefore = Math.min(now.getTime(), next?.getTime() ?? Infinity) - GRACE_MS;
    const stranded = await this.store.stranded(now, new Date(dueBefore));
    // One tag per sweep period: two workers sweeping the same period add each job once.
    const tag = `s${Math.floor(now.getTime() / this.config.webhooks.sweepIntervalMs)}`;
    for (const d of stranded) await this.queue.wake(d.id, d.attempt + 1, { tag, endpointId: d.endpointId });
    if (stranded.length) this.logger.log(`woke ${stranded.length} due deliveries that no queue held`);
    return stranded.length;
  }
}
