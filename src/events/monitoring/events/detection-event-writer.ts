import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventData } from '../../webhooks/events/envelope';
import type { EventKind } from '../../event-kind-names';
import { EventPublisher, PublishedEvent } from '../../webhooks/events/event-publisher.service';

export interface DetectionEvent {
  accountId: string;
  /** Detection emits every built kind of the contract. */
  kind: EventKind;
  /** The envelope's `data`. */
  data: Record<string, unknown>;
}

/** What `emit` hands back, for `wake` after the commit. */
export type EmittedEvent = { readonly kind: EventKind };

type Published = EmittedEvent & { published: PublishedEvent };

/**
 * Where detection's events go: live events (`is_test: false`) to every subscribed endpoint,
 * written in the caller's transaction (the outbox), so an event exists exactly when the
 * snapshot change that caused it was committed; once it has committed, the caller wakes
 * their delivery.
 */
@Injectable()
export class DetectionEventWriter {
  constructor(private readonly publisher: EventPublisher) {}

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

  /** After the commit: starts the delivery of what was emitted. Never throws. */
  async wake(events: EmittedEvent[]): Promise<void> {
    for (const e of events) await this.publisher.wake((e as Published).published);
  }
}
