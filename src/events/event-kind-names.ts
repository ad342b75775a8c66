/**
 * The event kinds of the contract, as plain lists: no zod here, so that the simulator page
 * (web/) can bundle them without the validation library. event-kinds.ts re-exports them.
 */
export const BUILT_EVENT_KINDS = [
  'company.status_changed',
  'company.name_changed',
  'company.address_changed',
  'company.legal_form_changed',
  'company.officers_changed',
  'company.filing_published',
  'company.no_change',
  'register.unavailable',
  'register.available',
] as const;
/** Kinds named by the contract but not built: none since issue 27 (the list stays for the next one). */
export const PLANNED_EVENT_KINDS = [] as readonly string[];

export type EventKind = (typeof BUILT_EVENT_KINDS)[number];
export type PlannedEventKind = string;

/** The kinds about one company: their `data` carries `entity_id` and `sequence`. */
export const COMPANY_EVENT_KINDS = BUILT_EVENT_KINDS.filter((k) => k.startsWith('company.'));
