import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { Clock } from '../../platform/clock';
import { RegisterBreaker } from '../../registers/client/register-breaker';
import { ConnectorRegistry } from '../../registers/connector-registry';
import { GleifClient } from '../../registers/lei/gleif.client';
import { LEI_DEFINITION } from '../../registers/lei/lei.definition';
import { LEI_INDEX, type SourceId } from '../../registers/source-id';
import { UpstreamError } from '../../registers/upstream-error';
import { ProbeStore } from '../probe-store';
import { RegisterStatusService } from '../register-status.service';
import { StatusMetrics } from '../status-metrics';
import { nextState } from '../status-rules';
import { ProbeJob } from './probe.queue';

/** Runs one probe: claims the slot, reads the register once, records the result and the status. */
@Injectable()
export class ProbeService {
  private readonly logger = new Logger(ProbeService.name);

  constructor(
    private readonly probes: ProbeStore,
    private readonly connectors: ConnectorRegistry,
    private readonly statuses: RegisterStatusService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly breaker: RegisterBreaker,
    private readonly gleif: GleifClient,
    private readonly metrics: StatusMetrics,
  ) {}

  /** Start of the slot `at` falls in: slots are PROBE_INTERVAL_SECONDS long, aligned to the epoch. */
  slotStart(at: Date): Date {
    const ms = this.config.probe.intervalSeconds * 1000;
    return new Date(Math.floor(at.getTime() / ms) * ms);
  }

  async run(job: ProbeJob): Promise<void> {
    const { country } = job;
    if (country !== LEI_INDEX && this.connectors.pauseReason(country)) return;
    // Claim the slot: whichever worker inserts the row probes; any other finds it taken.
    const probeId = await this.probes.claimSlot(country, new Date(job.slotStart), this.clock.now());
    if (probeId === null) return;
    const target = this.target(country);
    const started = performance.now();
    let httpStatus: number | null;
    let failure: UpstreamError | null = null;
    try {
      httpStatus = (
        await withTimeout(
          this.breaker.asProbe(() => target.probe()),
          this.config.probe.timeoutMs,
        )
      ).httpStatus;
    } catch (err) {
      failure = UpstreamError.from(err);
      httpStatus = failure.httpStatus;
    }
    const elapsedMs = performance.now() - started;
    this.metrics.probed(country, failure === null, elapsedMs / 1000);
    const latencyMs = Math.round(elapsedMs);
    await this.probes.finish(probeId, {
      finishedAt: this.clock.now(),
      ok: failure === null,
      latencyMs,
      httpStatus,
      errorClass: failure?.errorClass ?? null,
      errorMessage: failure?.message ?? null,
    });
    await this.statuses.update(country, (previous) =>
      nextState(previous, {
        ok: failure === null,
        failure: failure ? `${failure.errorClass}: ${failure.message}` : undefined,
        isMirror: !target.official,
        mirrorDescription: target.description,
      }),
    );
    if (failure) this.logger.warn(`probe ${country} failed: ${failure.errorClass} (${failure.message})`);
  }

  /** What a probe of `source` reads: its connector's probe, or GLEIF's (one known LEI record). */
  private target(source: SourceId): {
    probe(): Promise<{ httpStatus: number }>;
    official: boolean;
    description: string;
  } {
    if (source === LEI_INDEX)
      return { probe: () => this.gleif.probe(), official: true, description: LEI_DEFINITION.name };
    const connector = this.connectors.get(source);
    const { official, description } = connector.source();
    return { probe: () => connector.probe(), official, description };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new UpstreamError('timeout', `no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
