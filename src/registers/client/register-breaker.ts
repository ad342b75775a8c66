import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable, Logger } from '@nestjs/common';
import { AxiosError } from 'axios';
import { Clock } from '../../platform/clock';
import { AppConfig } from '../../platform/config/app-config';
import { UpstreamError, UpstreamErrorClass } from '../upstream-error';
import type { SourceId } from '../source-id';

/** Failures that say the register cannot be reached at all (as opposed to an answer we dislike). */
const CONNECTION_LEVEL: ReadonlySet<UpstreamErrorClass> = new Set([
  'timeout',
  'dns',
  'connection_refused',
  'connection_reset',
  'network',
  'tls',
]);
/** Consecutive connection-level failures of live reads that open the breaker (a failed probe opens it alone). */
const READ_FAILURES_TO_OPEN = 2;

export interface OpenBreaker {
  since: Date;
  errorClass: UpstreamErrorClass;
  retrySeconds: number;
}

/** A live read refused at once because the register is known to be unreachable. */
export class RegisterUnreachableError extends UpstreamError {
  constructor(
    readonly country: SourceId,
    readonly open: OpenBreaker,
  ) {
    super(open.errorClass, `register unreachable since ${open.since.toISOString()} (${open.errorClass}); not tried`);
    this.name = 'RegisterUnreachableError';
  }
}

interface Entry {
  failures: number;
  open?: { since: Date; openedAt: number; errorClass: UpstreamErrorClass };
  trialInFlight: boolean;
  listeners: Set<(open: OpenBreaker) => void>;
}

/**
 * Marks a probe's requests. While any AsyncLocalStorage is enabled, Node 20 runs promise hooks
 * on every promise of the process (awaits cost about three times as much): a worker that ran one
 * probe would pay that on every delivery ever after. So the storage is disabled again whenever no
 * probe is running (its next `run` enables it).
 */
const probeContext = new AsyncLocalStorage<true>();
let probesRunning = 0;

/**
 * One circuit breaker per register, and one for the LEI index (a GLEIF outage never opens a register’s). Connection-level failures (timeouts, DNS, refused, reset,
 * unreachable network, TLS) of live reads and probes open it; while it is open, live reads are
 * refused at once (searches answer from the fallback) and reads waiting in the register's
 * politeness queue are released. After REGISTER_BREAKER_RETRY_SECONDS one trial read goes
 * out (half-open): an answer closes it, a failure opens it again. Probes always go out.
 */
@Injectable()
export class RegisterBreaker {
  private readonly logger = new Logger(RegisterBreaker.name);
  private readonly entries = new Map<SourceId, Entry>();

  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** Runs a probe: it goes out whatever the breaker says, and one failure of it opens the breaker. */
  async asProbe<T>(run: () => Promise<T>): Promise<T> {
    probesRunning++;
    try {
      return await probeContext.run(true, run);
    } finally {
      if (--probesRunning === 0) probeContext.disable();
    }
  }

  /** The breaker while it refuses reads; null when a read may go out (closed, or due for its trial). */
  openState(country: SourceId): OpenBreaker | null {
    const e = this.entry(country);
    if (!e.open) return null;
    if (!e.trialInFlight && this.clock.now().getTime() - e.open.openedAt >= this.retryMs) return null;
    return this.describe(e);
  }

  /**
   * Asks to send one request: throws RegisterUnreachableError when the breaker refuses it;
   * returns whether this request is the half-open trial.
   */
  admit(country: SourceId): { trial: boolean } {
    if (probeContext.getStore()) return { trial: false };
    const e = this.entry(country);
    if (!e.open) return { trial: false };
    if (e.trialInFlight || this.clock.now().getTime() - e.open.openedAt < this.retryMs)
      throw new RegisterUnreachableError(country, this.describe(e));
    e.trialInFlight = true;
    return { trial: true };
  }

  /** Outcome of a request that went out: anything the register answered closes the breaker. */
  record(country: SourceId, error: unknown, trial: boolean): void {
    const e = this.entry(country);
    if (trial) e.trialInFlight = false;
    const failure =
      error === undefined || (error instanceof AxiosError && error.response) ? null : UpstreamError.from(error);
    if (!failure || !CONNECTION_LEVEL.has(failure.errorClass)) {
      if (e.open) this.logger.log(`${country} answers again: live reads resume`);
      e.failures = 0;
      e.open = undefined;
      return;
    }
    e.failures += 1;
    const isProbe = probeContext.getStore() === true;
    if (e.open) {
      e.open.openedAt = this.clock.now().getTime(); // the trial failed: wait again
      return;
    }
    if (isProbe || e.failures >= READ_FAILURES_TO_OPEN) {
      const now = this.clock.now();
      e.open = { since: now, openedAt: now.getTime(), errorClass: failure.errorClass };
      this.logger.warn(
        `${country} is unreachable (${failure.errorClass}): live reads go to the fallback; tried again every ${this.retryMs / 1000} s`,
      );
      const open = this.describe(e);
      for (const listener of [...e.listeners]) listener(open);
    }
  }

  /**
   * A request its caller gave up on before the answer (a deadline of its own, shorter than the
   * register timeout): it says nothing of the register, and ends the trial it may have been.
   */
  abandon(country: SourceId, trial: boolean): void {
    if (trial) this.entry(country).trialInFlight = false;
  }

  /** Called when the breaker opens (reads waiting in the politeness queue give up). */
  onOpen(country: SourceId, listener: (open: OpenBreaker) => void): () => void {
    const e = this.entry(country);
    e.listeners.add(listener);
    return () => e.listeners.delete(listener);
  }

  private get retryMs(): number {
    return this.config.registerBreakerRetrySeconds * 1000;
  }

  private describe(e: Entry): OpenBreaker {
    return {
      since: e.open!.since,
      errorClass: e.open!.errorClass,
      retrySeconds: this.config.registerBreakerRetrySeconds,
    };
  }

  private entry(country: SourceId): Entry {
    let e = this.entries.get(country);
    if (!e) this.entries.set(country, (e = { failures: 0, trialInFlight: false, listeners: new Set() }));
    return e;
  }
}
