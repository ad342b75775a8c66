import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfig } from '../core/config/app-config';
import { Clock } from '../core/clock';
import { JobQueue } from '../core/jobs/job-queue';
import { ConnectorRegistry } from '../registers/connector-registry';
import { REGISTER_TABLE } from '../registers/register-table';
import { ProbeJob, ProbeService } from './probe.service';
import { RegisterStatusService } from './register-status.service';

/** How often the scheduler looks for a new slot; a new slot is enqueued at most this late. */
const TICK_MAX_MS = 15_000;

/**
 * Enqueues one probe job per register per slot, with a deterministic job id so that any
 * number of workers enqueue each slot once. It only enqueues; ProbeProcessor probes.
 * Registered in the worker (and the all-in-one process) only.
 */
@Injectable()
export class ProbeScheduler implements OnApplicationBootstrap {
  private readonly logger = new Logger(ProbeScheduler.name);

  constructor(
    private readonly jobs: JobQueue,
    private readonly probes: ProbeService,
    private readonly statuses: RegisterStatusService,
    private readonly connectors: ConnectorRegistry,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly scheduler: SchedulerRegistry,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const every = Math.min(this.config.probe.intervalSeconds * 1000, TICK_MAX_MS);
    const interval = setInterval(() => void this.tick().catch((err: Error) => this.logger.error(`scheduling failed: ${err.message}`)), every);
    this.scheduler.addInterval('probe-scheduler', interval);
    await this.tick().catch((err: Error) => this.logger.error(`scheduling failed: ${err.message}`));
  }

  /** Enqueues the current slot's probes (idempotent within a slot). */
  async tick(): Promise<void> {
    await this.statuses.reconcile();
    const slotStart = this.probes.slotStart(this.clock.now()).toISOString();
    for (const { country } of REGISTER_TABLE) {
      if (this.connectors.pauseReason(country)) continue;
      await this.jobs.add<ProbeJob>('probe', { country, slotStart }, { jobId: `probe:${country}:${slotStart}`, attempts: 2, backoffMs: 2_000 });
    }
  }
}
