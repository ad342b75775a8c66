import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfig } from '../../platform/config/app-config';
import { JobQueueUnavailableError } from '../../platform/jobs/job-queue';
import { Clock } from '../../platform/clock';
import { ConnectorRegistry } from '../../registers/connector-registry';
import { REGISTER_TABLE } from '../../registers/registers';
import { LEI_INDEX } from '../../registers/source-id';
import { RegisterStatusService } from '../register-status.service';
import { ProbeQueue } from './probe-queue.service';
import { ProbeService } from './probe.service';

/** How often the scheduler looks for a new slot; a new slot is enqueued at most this late. */
const TICK_MAX_MS = 15_000;

/**
 * Enqueues one probe job per register (and one for the LEI index) per slot, with a deterministic job id so that any
 * number of workers enqueue each slot once. It only enqueues; ProbeProcessor probes. Worker only.
 */
@Injectable()
export class ProbeScheduler implements OnApplicationBootstrap {
  private readonly logger = new Logger(ProbeScheduler.name);

  constructor(
    private readonly queue: ProbeQueue,
    private readonly probes: ProbeService,
    private readonly statuses: RegisterStatusService,
    private readonly connectors: ConnectorRegistry,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly scheduler: SchedulerRegistry,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const every = Math.min(this.config.probe.intervalSeconds * 1000, TICK_MAX_MS);
    const interval = setInterval(() => void this.tick().catch((err: Error) => this.failed(err)), every);
    this.scheduler.addInterval('probe-scheduler', interval);
    await this.tick().catch((err: Error) => this.failed(err));
  }

  private failed(err: Error): void {
    // Redis down is logged once by the Redis breaker; the slot is enqueued on a later tick.
    if (err instanceof JobQueueUnavailableError) this.logger.debug(`probes not enqueued: ${err.message}`);
    else this.logger.error(`scheduling failed: ${err.message}`);
  }

  /** Enqueues the current slot's probes (idempotent within a slot). */
  async tick(): Promise<void> {
    await this.statuses.reconcile();
    const slotStart = this.probes.slotStart(this.clock.now());
    for (const { country } of REGISTER_TABLE) {
      if (this.connectors.pauseReason(country)) continue;
      await this.queue.enqueue(country, slotStart);
    }
    // GLEIF's index, probed like a register (never paused: it needs no credential).
    await this.queue.enqueue(LEI_INDEX, slotStart);
  }
}
