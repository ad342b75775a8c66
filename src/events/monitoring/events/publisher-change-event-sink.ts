import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventData } from '../../webhooks/events/envelope';
import { EventPublisher, PublishedEvent } from '../../webhooks/events/event-publisher.service';
import { ChangeEventSink, DetectionEvent, EmittedEvent } from './change-event-sink';

type Published = EmittedEvent & { published: PublishedEvent };

/** Detection's events through the webhooks outbox: live events (`is_test: false`), every subscribed endpoint. */
@Injectable()
export class PublisherChangeEventSink extends ChangeEventSink {
  constructor(private readonly publisher: EventPublisher) {
    super();
  }

  async emit(manager: EntityManager, event: DetectionEvent): Promise<EmittedEvent> {
    const published = await this.publisher.publish(manager, {
      accountId: event.accountId,
      kind: event.kind,
      isTest: false,
      data: event.data as unknown as EventData,
    });
    const emitted: Published = { kind: event.kind, published };
    return emitted;
  }

  async wake(events: EmittedEvent[]): Promise<void> {
    for (const e of events) await this.publisher.wake((e as Published).published);
  }
}
