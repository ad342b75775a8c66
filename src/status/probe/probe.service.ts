import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { Clock } from '../../platform/clock';
import { RegisterBreaker } from '../../registers/client/register-breaker';
import { ConnectorRegistry } from '../../registers/connector-registry';
import { UpstreamError } from '../../registers/upstream-error';
import { ProbeStore } from '../probe-store';
import { RegisterStatusService } from '../register-status.service';
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
  ) {}

  /** Start of the slot `at` falls in: slots are PROBE_INTERVAL_SECONDS long, aligned to the epoch. */
  slotStart(at: Date): Date {
    const ms = this.config.probe.intervalSeconds * 1000;
    return new Date(Math.floor(at.getTime() / ms) * ms);
  }

  async run(job: ProbeJob): Promise<void> {
    const { country } = job;
    if (this.connectors.pauseReason(country)) return;
    // Claim the slot: whichever worker inserts the row probes; any other finds it taken.
    const probeId = await this.probes.claimSlot(country, new Date(job.slotStart), this.clock.now());
    if (probeId === null) return;
    const connector = this.connectors.get(country);
    const started = performance.now();
    let httpStatus: number | null;
    let failure: UpstreamError | null = null;
    try {
      httpStatus = (
        await withTimeout(
          this.breaker.asProbe(() => connector.probe()),
          this.config.probe.timeoutMs,
        )
      ).httpStatus;
    } catch (err) {
      failure = UpstreamError.from(err);
      httpStatus = failure.httpStatus;
    }
    const latencyMs = Math.round(performance.now() - started);
    await this.probes.finish(probeId, {
      finishedAt: this.clock.now(),
      ok: failure === null,
      latencyMs,
      httpStatus,
      errorClass: failure?.errorClass ?? null,
      errorMessage: failure?.message ?? null,
    });
    const source = connector.source();
    await this.statuses.update(country, (previous) =>
      nextState(previous, {
        ok: failure === null,
        failure: failure ? `${failure.errorClass}: ${failure.message}` : undefined,
        isMirror: !source.official,
        mirrorDescription: source.description,
      }),
    );
    if (failure) this.logger.warn(`probe ${country} failed: ${failure.errorClass} (${failure.message})`);
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
