import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { z } from 'zod';
import { Clock } from '../../platform/clock';
import { AppConfig } from '../../platform/config/app-config';
import { ApiError } from '../../platform/errors/api-error';
import { Deliverer } from '../webhooks/delivery/deliverer.service';
import { DeliveryQueue } from '../webhooks/delivery/delivery-queue.service';
import { WebhookEndpointsService } from '../webhooks/endpoints/webhook-endpoints.service';
import { EventPublisher } from '../webhooks/events/event-publisher.service';
import { SimulationResultDto, simulateSchema } from './dto/simulate.dto';
import { SampleEvents } from './sample-events';

const HOUR_MS = 3_600_000;

/**
 * Sends one test event now: a real, signed POST from the service to one of the account's
 * endpoints, marked as test, through the same outbox and the same attempt code as live
 * deliveries — so it is in the delivery log, refused to private targets, and retried on the
 * schedule if it fails. Limited per account per rolling hour, counted in the database.
 */
@Injectable()
export class SimulatorService {
  private readonly logger = new Logger(SimulatorService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly endpoints: WebhookEndpointsService,
    private readonly samples: SampleEvents,
    private readonly publisher: EventPublisher,
    private readonly deliverer: Deliverer,
    private readonly queue: DeliveryQueue,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async send(accountId: string, input: z.infer<typeof simulateSchema>): Promise<SimulationResultDto> {
    const endpoint = await this.endpoints.get(accountId, input.endpointId);
    if (!endpoint.enabled)
      throw new ApiError(
        'conflict',
        'The endpoint is disabled: enable it (PATCH enabled: true) to send it test events.',
      );
    const data = await this.samples.data(input.event, input.country, input.registrationNumber);
    const limit = this.config.limits.simulatorSendsPerHour;
    const { published, used } = await this.dataSource.transaction(async (m) => {
      // The account row lock makes the count exact when sends race, on any number of replicas.
      await m.query(`SELECT id FROM account WHERE id = $1 FOR UPDATE`, [accountId]);
      const since = new Date(this.clock.now().getTime() - HOUR_MS);
      const sent: Array<{ n: number; oldest: Date | null }> = await m.query(
        `SELECT count(*)::int AS n, min(created_at) AS oldest FROM event WHERE account_id = $1 AND is_test AND created_at > $2`,
        [accountId, since],
      );
      if (sent[0].n >= limit) {
        const resetAt = new Date((sent[0].oldest ?? this.clock.now()).getTime() + HOUR_MS);
        const seconds = Math.max(1, Math.ceil((resetAt.getTime() - this.clock.now().getTime()) / 1000));
        throw new ApiError(
          'simulator_limit_reached',
          `This account sent ${limit} test events in the last hour (SIMULATOR_SENDS_PER_HOUR). The next one is accepted at ${resetAt.toISOString()}.`,
          { limit, resetAt: resetAt.toISOString() },
          { 'Retry-After': String(seconds) },
        );
      }
      const p = await this.publisher.publish(m, {
        accountId,
        kind: input.event,
        isTest: true,
        data,
        endpointIds: [endpoint.id],
      });
      return { published: p, used: sent[0].n + 1 };
    });
    const delivery = published.deliveries[0];
    const report = await this.deliverer.claimAndRun(delivery.id);
    const base = {
      eventId: published.eventId,
      deliveryId: delivery.id,
      webhookId: delivery.messageId,
      remainingThisHour: Math.max(0, limit - used),
    };
    if (!report) {
      // Every slot of the endpoint is busy: the delivery waits its turn like any other.
      await this.queue
        .wake(delivery.id, 1, { endpointId: delivery.endpointId })
        .catch((err: Error) => this.logger.warn(`could not enqueue ${delivery.id} (the sweeper will): ${err.message}`));
      return {
        ...base,
        sent: false,
        request: null,
        response: null,
        error: null,
        state: 'pending',
        nextAttemptAt: this.clock.now().toISOString(),
      };
    }
    return {
      ...base,
      sent: true,
      request: report.request,
      response: report.response,
      error: report.error,
      state: report.state,
      nextAttemptAt: report.nextAttemptAt,
    };
  }
}
