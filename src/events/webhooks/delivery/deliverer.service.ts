import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '../../../platform/clock';
import { storableText } from '../../../platform/validation/text-input';
import { AppConfig } from '../../../platform/config/app-config';
import { DnsResolver } from '../outbound/dns-resolver';
import { OutboundError, OutboundHttpClient, OutboundResponse } from '../outbound/outbound-http-client';
import { TargetGuard } from '../outbound/target-guard.service';
import { signatureHeader } from '../signing/standard-webhooks';
import { DeliveryQueue } from './delivery-queue.service';
import { DeliveryMetrics } from './delivery-metrics';
import { AttemptRecord, DeliveryOutcomes } from './delivery-outcomes';
import { ClaimedDelivery, DeliveryStore, DeliveryTarget } from './delivery-store';
import { nextStep } from './retry-policy';

/** What one attempt sent and got: the simulator's answer, and the processor's to log. */
export interface AttemptReport {
  deliveryId: string;
  eventId: string;
  endpointId: string;
  webhookId: string;
  attempt: number;
  request: { method: 'POST'; url: string; headers: Record<string, string>; body: string };
  response: { status: number; durationMs: number; bodyStart: string } | null;
  error: { class: string; message: string } | null;
  state: 'succeeded' | 'pending' | 'failed';
  nextAttemptAt: string | null;
}

/** What an attempt got: the receiver's answer, or why there was none. */
interface Exchange {
  response: OutboundResponse | null;
  error: { class: string; message: string } | null;
}

/**
 * One attempt of one delivery, the same wherever it runs (the worker's processor, the
 * simulator in the api): claim it, sign it, POST it through the guarded outbound client,
 * record the outcome, and wake the queue for the retry if one is due.
 */
@Injectable()
export class Deliverer implements OnApplicationShutdown {
  private readonly logger = new Logger(Deliverer.name);
  private readonly client: OutboundHttpClient;

  constructor(
    private readonly store: DeliveryStore,
    private readonly outcomes: DeliveryOutcomes,
    private readonly queue: DeliveryQueue,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    guard: TargetGuard,
    dns: DnsResolver,
    private readonly metrics: DeliveryMetrics,
  ) {
    this.client = new OutboundHttpClient(guard.addresses, dns, config.webhooks.userAgent);
  }

  /** After running jobs finished their attempts (the job runners wait for them before this). */
  onApplicationShutdown(): void {
    this.client.close();
  }

  /** Claims attempts (see DeliveryStore.claim); run each with `run`. */
  claim(target: DeliveryTarget): Promise<ClaimedDelivery[]> {
    return this.store.claim(target, this.clock.now(), (c) => this.headers(c));
  }

  /**
   * Claims and makes one attempt of this delivery; null when it could not be claimed. For the
   * simulator: a customer testing the endpoint by hand gets an attempt even when its circuit is
   * open (a probe of its own: a success closes it).
   */
  async claimAndRun(deliveryId: string): Promise<AttemptReport | null> {
    const [claim] = await this.claim({ deliveryId, circuit: false });
    return claim ? this.run(claim) : null;
  }

  /** Whether the delivery could be claimed now (no lock taken), and its endpoint. */
  peek(deliveryId: string): Promise<{ endpointId: string; claimable: boolean } | null> {
    return this.store.peek(deliveryId, this.clock.now());
  }

  /** The endpoint's oldest due delivery that nobody holds. */
  nextDue(endpointId: string, now: Date): Promise<{ id: string; attempt: number } | null> {
    return this.store.nextDue(endpointId, now);
  }

  /**
   * Makes one claimed attempt and records it; never throws for the receiver's failures.
   * `onAnswered` is called as soon as a successful request is answered, before its outcome is
   * written: the endpoint's slot is free from then on (see DeliveryStore.answeredAttempt); after
   * a failure (an error status, a timeout, no connection), once its outcome is written.
   */
  async run(claim: ClaimedDelivery, onAnswered?: () => void): Promise<AttemptReport> {
    const started = performance.now();
    const { response, error } = claim.unsigned ? this.unsent(claim) : await this.send(claim);
    const durationMs = Math.round(performance.now() - started);
    // A failed attempt keeps its slots until its outcome is written: the endpoint's next claim
    // then sees the failure (and the circuit it may open), so a half-open endpoint gets one probe.
    const succeeded = !error && response !== null && response.status >= 200 && response.status < 300;
    const recorded = succeeded ? this.store.answeredAttempt(claim.deliveryId, claim.endpointId) : undefined;
    if (succeeded) onAnswered?.();
    try {
      return await this.record(claim, response, error, durationMs);
    } finally {
      recorded?.();
      if (!succeeded) onAnswered?.();
    }
  }

  /** POSTs a claimed attempt: the answer, or what went wrong on the way (never thrown). */
  private async send(claim: ClaimedDelivery): Promise<Exchange> {
    try {
      const response = await this.client.post({
        url: claim.url,
        headers: claim.headers,
        body: claim.body,
        timeoutMs: this.config.webhooks.timeoutMs,
      });
      return { response, error: null };
    } catch (err) {
      if (err instanceof OutboundError)
        return { response: null, error: { class: err.errorClass, message: err.message } };
      this.logger.error({ err }, `delivery ${claim.deliveryId}: attempt ${claim.attempt} failed unexpectedly`);
      return { response: null, error: { class: 'internal_error', message: 'the attempt failed inside the service' } };
    }
  }

  /**
   * An attempt that cannot be signed is not sent. The customer's log says so without the
   * service's key configuration; the operator's names the key (`claim.unsigned`).
   */
  private unsent(claim: ClaimedDelivery): Exchange {
    this.logger.error(
      `delivery ${claim.deliveryId} not sent: endpoint ${claim.endpointId}'s secret: ${claim.unsigned}`,
    );
    return {
      response: null,
      error: {
        class: 'signing_unavailable',
        message: 'not sent: the service could not sign it (a fault on our side); it is tried again on the schedule',
      },
    };
  }

  /** Writes an attempt's outcome, and wakes the queue for the retry if one is due. */
  private async record(
    claim: ClaimedDelivery,
    response: OutboundResponse | null,
    error: { class: string; message: string } | null,
    durationMs: number,
  ): Promise<AttemptReport> {
    const now = this.clock.now();
    if (response && !error && (response.status < 200 || response.status >= 300)) {
      error =
        response.status >= 300 && response.status < 400
          ? { class: 'redirect_not_followed', message: `answered ${response.status}; redirects are not followed` }
          : { class: 'http_error', message: `answered ${response.status}` };
    }
    // Built from the receiver's side of the exchange (a TLS or parser error) and stored: never with NUL.
    if (error) error = { class: error.class, message: storableText(error.message) };
    const retryAfter = response?.headers['retry-after'];
    const step = nextStep(
      { status: response?.status, retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined },
      claim.attempt,
      { schedule: this.config.webhooks.retrySchedule, maxAttempts: claim.maxAttempts, random: Math.random },
      now,
    );
    const nextAttemptAt = step.state === 'pending' ? new Date(now.getTime() + step.delayMs) : null;
    const record: AttemptRecord = {
      durationMs,
      status: response?.status ?? null,
      responseBody: response ? response.bodyStart : null,
      errorClass: error?.class ?? null,
      errorMessage: error?.message ?? null,
    };
    const lastError =
      step.state === 'succeeded'
        ? null
        : step.state === 'failed'
          ? `${error?.message ?? 'failed'}; ${step.reason}`
          : (error?.message ?? null);
    const { disabled, circuitOpenUntil, circuitClosed } = await this.outcomes.finish(
      claim,
      record,
      {
        state: step.state,
        nextAttemptAt,
        lastError,
        disableEndpoint: step.state === 'failed' ? step.disableEndpoint : undefined,
      },
      now,
    );
    if (disabled) this.logger.warn(`endpoint ${claim.endpointId} disabled: ${disabled}`);
    this.metrics.recorded(
      {
        errorClass: record.errorClass,
        state: step.state,
        attempt: claim.attempt,
        eventCreatedAt: claim.eventCreatedAt,
        endpointDisabled: !!disabled,
      },
      now,
    );
    if (circuitOpenUntil)
      this.logger.log(`endpoint ${claim.endpointId}: circuit open until ${circuitOpenUntil.toISOString()}`);
    if (circuitOpenUntil) await this.wakeProbe(claim.endpointId, circuitOpenUntil);
    if (circuitClosed) {
      this.logger.log(`endpoint ${claim.endpointId}: circuit closed`);
      await this.wakeProbe(claim.endpointId, now);
    }
    if (step.state === 'pending') {
      await this.queue
        .wake(claim.deliveryId, claim.attempt + 1, { delayMs: step.delayMs, endpointId: claim.endpointId })
        .catch((err: Error) =>
          this.logger.warn(`could not enqueue the retry of ${claim.deliveryId} (the sweeper will): ${err.message}`),
        );
    }
    this.logger.debug(
      `delivery ${claim.deliveryId} attempt ${claim.attempt} → ${response?.status ?? error?.class} in ${durationMs} ms (${step.state})`,
    );
    return {
      deliveryId: claim.deliveryId,
      eventId: claim.eventId,
      endpointId: claim.endpointId,
      webhookId: claim.messageId,
      attempt: claim.attempt,
      request: { method: 'POST', url: claim.url, headers: claim.headers, body: claim.body },
      response: response ? { status: response.status, durationMs, bodyStart: response.bodyStart } : null,
      error,
      state: step.state,
      nextAttemptAt: nextAttemptAt?.toISOString() ?? null,
    };
  }

  /**
   * Wakes the endpoint's oldest pending delivery at `until` (or when it is due, if later): the
   * probe when its circuit opened, its held deliveries when it closed (the sweeper would too,
   * a sweep later).
   */
  private async wakeProbe(endpointId: string, until: Date): Promise<void> {
    try {
      const next = await this.store.oldestPending(endpointId, this.clock.now());
      if (!next) return;
      const at = Math.max(until.getTime(), next.dueAt.getTime());
      await this.queue.wake(next.id, next.attempt + 1, {
        delayMs: Math.max(0, at - this.clock.now().getTime()),
        tag: `p${until.getTime()}`,
        endpointId,
      });
    } catch (err) {
      this.logger.warn(`could not wake the probe of ${endpointId} (the sweeper will): ${(err as Error).message}`);
    }
  }

  /** The request headers of one attempt: the contract's two, and Standard Webhooks' three (timestamp fresh per attempt). */
  private headers(c: Omit<ClaimedDelivery, 'headers'>): Record<string, string> {
    const timestamp = Math.floor(c.startedAt.getTime() / 1000);
    return {
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(c.body)),
      'User-Agent': this.config.webhooks.userAgent,
      'webhook-id': c.messageId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(c.secrets, c.messageId, timestamp, c.body),
      'X-Service-Event': c.kind,
      ...(c.isTest ? { 'X-Service-Test': 'true' } : {}),
    };
  }
}
