import { z } from 'zod';
import { BUILT_EVENT_KINDS, EventKind, PLANNED_EVENT_KINDS, PlannedEventKind } from './event-kind-names';

/**
 * The event kinds of the contract. Built kinds can be subscribed to, simulated and emitted;
 * planned kinds are named so that asking for one gets a clear answer, never emitted.
 */
export { BUILT_EVENT_KINDS, PLANNED_EVENT_KINDS };
export type { EventKind, PlannedEventKind };

/** What a new endpoint subscribes to when it names no events: every built kind but no_change (sent only on request). */
export const DEFAULT_SUBSCRIPTION: readonly EventKind[] = BUILT_EVENT_KINDS.filter((k) => k !== 'company.no_change');

/** The `change.field` of each company change kind. */
export const CHANGE_FIELD = {
  'company.status_changed': 'status',
  'company.name_changed': 'name',
  'company.address_changed': 'address',
  'company.legal_form_changed': 'legal_form',
} as const;
export type ChangeKind = keyof typeof CHANGE_FIELD;

export function isEventKind(value: unknown): value is EventKind {
  return typeof value === 'string' && (BUILT_EVENT_KINDS as readonly string[]).includes(value);
}

export function isPlannedEventKind(value: unknown): value is PlannedEventKind {
  return typeof value === 'string' && (PLANNED_EVENT_KINDS as readonly string[]).includes(value);
}

/** Why a value is not an event kind one may ask for: planned, or unknown (listing the allowed ones). */
export function eventKindRefusal(value: unknown): { code: 'planned_event' | 'unknown_event'; message: string } | null {
  if (isEventKind(value)) return null;
  if (isPlannedEventKind(value))
    return { code: 'planned_event', message: `${value} is planned, not built: it is never emitted yet` };
  const shown =
    typeof value === 'string' ? `"${value.slice(0, 60)}"` : (JSON.stringify(value)?.slice(0, 60) ?? String(value));
  return { code: 'unknown_event', message: `${shown} is not an event kind; allowed: ${BUILT_EVENT_KINDS.join(', ')}` };
}

/**
 * zod check of one event kind in a request body: unknown kinds list the allowed ones,
 * planned kinds say they are not built (errors[].code unknown_event / planned_event).
 */
export const eventKindSchema = z
  .string()
  .superRefine((value, ctx) => {
    const refusal = eventKindRefusal(value);
    if (refusal) ctx.addIssue({ code: 'custom', message: refusal.message, params: { code: refusal.code } });
  })
  .meta({
    enum: [...BUILT_EVENT_KINDS],
    description: 'An event kind (developer preview).',
  }) as unknown as z.ZodType<EventKind>;
