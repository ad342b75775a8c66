import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfig } from '../../../platform/config/app-config';
import { ConnectorRegistry } from '../../../registers/connector-registry';
import { RegistersConfig } from '../../../registers/register-config';
import { COUNTRY_CODES, CountryCode, Politeness, REGISTERS } from '../../../registers/registers';
import { RegisterStatusService } from '../../../status/register-status.service';
import { ChangeSources } from '../feeds/change-sources.service';
import { FeedCursorStore } from '../feeds/feed-cursor-store';
import { CompanyCheckService } from './company-check.service';
import { DetectionCheckQueue } from './detection-check-queue.service';

/** Companies per job: reads are slow (the register's pace), confirmations fast. */
const READ_BATCH = 10;
const CONFIRM_BATCH = 100;

/** Confirmations against a feed (no request) queued at most per register. */
export const MAX_CONFIRMS_IN_FLIGHT = 1_000;
/** Reads queued per register: this many seconds of work at the register's politeness. */
const READ_AHEAD_SECONDS = 10;

/** The most requests per second the register's politeness lets through (concurrency, spacing, quota). */
export function politeRate(p: Politeness): number {
  const rates = [p.maxConcurrent * 10];
  if (p.minTimeMs > 0) rates.push(1000 / p.minTimeMs);
  if (p.quota) rates.push((p.quota.count * 1000) / p.quota.windowMs);
  return Math.min(...rates);
}

/**
 * Claims the companies whose check is due (their slot in the interval came, or a feed named
 * them) and enqueues them in batches. Skips registers that are paused or not readable: their
 * companies stay due and are caught up after recovery. Only enqueues. Worker only.
 */
@Injectable()
export class DetectionCheckScheduler implements OnApplicationBootstrap {
  private readonly logger = new Logger(DetectionCheckScheduler.name);

  constructor(
    private readonly queue: DetectionCheckQueue,
    private readonly checks: CompanyCheckService,
    private readonly sources: ChangeSources,
    private readonly cursors: FeedCursorStore,
    private readonly statuses: RegisterStatusService,
    private readonly connectors: ConnectorRegistry,
    private readonly config: AppConfig,
    private readonly registers: RegistersConfig,
    private readonly scheduler: SchedulerRegistry,
  ) {}

  onApplicationBootstrap(): void {
    const every = Math.min(Math.max((this.config.detection.intervalSeconds * 1000) / 20, 200), 5_000);
    const interval = setInterval(
      () => void this.tick().catch((err: Error) => this.logger.error(`detection scheduling failed: ${err.message}`)),
      every,
    );
    this.scheduler.addInterval('detection-check-scheduler', interval);
  }

  async tick(): Promise<number> {
    let queued = 0;
    for (const country of COUNTRY_CODES) {
      if (this.connectors.pauseReason(country) || !(await this.statuses.current(country)).readable) continue;
      // Reads are queued only as far ahead as the register's politeness lets them run, so that a
      // slow register's reads never hold up the other registers' checks in the shared queue.
      const readRoom = this.readAhead(country) - (await this.checks.leasedCount(country, 'read'));
      if (readRoom > 0) {
        const { token, entityIds } = await this.checks.claimDue(country, readRoom, 'read');
        if (entityIds.length) await this.queue.enqueue(country, token, entityIds, READ_BATCH);
        queued += entityIds.length;
      }
      if (this.sources.mode(country) === 'schedule') continue;
      const feedReadUpTo = (await this.cursors.get(country))?.caughtUpAt;
      if (!feedReadUpTo) continue;
      await this.queue.enqueueQuietConfirmation(country, feedReadUpTo);
      const confirmRoom = MAX_CONFIRMS_IN_FLIGHT - (await this.checks.leasedCount(country, 'confirm'));
      if (confirmRoom > 0) {
        const { token, entityIds } = await this.checks.claimDue(country, confirmRoom, 'confirm', feedReadUpTo);
        if (entityIds.length) await this.queue.enqueue(country, token, entityIds, CONFIRM_BATCH);
        queued += entityIds.length;
      }
    }
    return queued;
  }

  private readAhead(country: CountryCode): number {
    const purpose = REGISTERS[country].changeDetection.readEndpoint(this.registers.of(country));
    return Math.max(
      5,
      Math.ceil(politeRate(REGISTERS[country].definition.endpoints[purpose].politeness) * READ_AHEAD_SECONDS),
    );
  }
}
