import type { CompanyRecord } from '../../../registers/connector';

/** The fields detection compares, as `change.field` names them. */
export const WATCHED_FIELDS = ['name', 'status', 'address', 'legal_form'] as const;
export type WatchedField = (typeof WATCHED_FIELDS)[number];

/** The event kind of a change of each field. */
export const CHANGE_EVENT_KIND = {
  name: 'company.name_changed',
  status: 'company.status_changed',
  address: 'company.address_changed',
  legal_form: 'company.legal_form_changed',
} as const satisfies Record<WatchedField, string>;

/** The four fields in the register's own wording. */
export type WatchedValues = Record<WatchedField, string | null>;

export interface FieldChange {
  field: WatchedField;
  previous: string;
  current: string;
}

export function watchedValues(record: CompanyRecord): WatchedValues {
  return { name: record.name, status: record.status, address: record.address, legal_form: record.legalForm };
}

/**
 * The comparison key of a value: what the register said, less the noise of writing it —
 * Unicode form, case, spacing, and punctuation around the words. An address is compared as
 * the set of its parts (lines, or comma-separated pieces), so parts the register only put in
 * another order are not a change.
 */
export function comparisonKey(field: WatchedField, value: string | null): string | null {
  if (value === null) return null;
  const fold = (s: string) =>
    s
      .normalize('NFKC')
      .toLocaleLowerCase('en')
      .replace(/[\s\u00a0\u202f]+/g, ' ')
      .replace(/\s*([,;.])\s*/g, '$1')
      .trim();
  if (field !== 'address') return fold(value).replace(/[,;.]+$/, '') || null;
  const parts = fold(value)
    .split(/[,;\n]+/)
    .map((p) => p.trim())
    .filter(Boolean)
    .sort();
  return parts.length ? parts.join('|') : null;
}

export function comparisonKeys(values: WatchedValues): WatchedValues {
  return {
    name: comparisonKey('name', values.name),
    status: comparisonKey('status', values.status),
    address: comparisonKey('address', values.address),
    legal_form: comparisonKey('legal_form', values.legal_form),
  };
}

/**
 * The changes between what the snapshot holds and a fresh read, one per field whose key
 * differs. A field the read does not carry (null: the register did not publish it this time)
 * is not a change, and neither is a field the snapshot never had: an event always has a
 * previous and a current value in the register's own words.
 */
export function diffSnapshot(
  previous: { values: WatchedValues; keys: WatchedValues },
  current: WatchedValues,
): FieldChange[] {
  const keys = comparisonKeys(current);
  const changes: FieldChange[] = [];
  for (const field of WATCHED_FIELDS) {
    const before = previous.values[field];
    const after = current[field];
    if (before === null || after === null) continue;
    if ((previous.keys[field] ?? comparisonKey(field, before)) === keys[field]) continue;
    changes.push({ field, previous: before, current: after });
  }
  return changes;
}
