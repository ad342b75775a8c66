/**
 * The event kinds of the contract, as plain lists: no zod here, so that the simulator page
 * (web/) can bundle them without the validation library. event-kinds.ts re-exports them.
 */
export const BUILT_EVENT_KINDS = [
  'company.status_changed',
  'company.name_changed',
  'company.address_changed',
  'company.legal_form_changed',
  'company.no_change',
  'register.unavailable',
] as const;
export const PLANNED_EVENT_KINDS = ['company.officers_changed', 'company.filing_published'] as const;

export type EventKind = (typeof BUILT_EVENT_KINDS)[number];
export type PlannedEventKind = (typeof PLANNED_EVENT_KINDS)[number];
