import type { EntityManager } from 'typeorm';
import type { EventKind } from '../../webhooks/events/event-kind-names';

export interface DetectionEvent {
  accountId: string;
  /** Detection emits every built kind of the contract. */
  kind: EventKind;
  /** The envelope's `data`. */
  data: Record<string, unknown>;
}

/** What `emit` hands back, for `wake` after the commit. */
export type EmittedEvent = { readonly kind: EventKind };

/**
 * Where detection's events go: written in the caller's transaction (the outbox), so an event
 * exists exactly when the snapshot change that caused it was committed; once the transaction
 * has committed, the caller wakes their delivery. Detection and the status module depend on
 * this port only; the webhooks side provides it.
 */
export abstract class ChangeEventSink {
  abstract emit(manager: EntityManager, event: DetectionEvent): Promise<EmittedEvent>;
  /** After the commit: starts the delivery of what was emitted. Never throws. */
  abstract wake(events: EmittedEvent[]): Promise<void>;
}
