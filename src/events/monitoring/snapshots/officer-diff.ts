import type { Officer } from '../../../registers/connector';

/** What happened to one officer: `change.action` of company.officers_changed. */
export type OfficerAction = 'appointed' | 'resigned' | 'details_changed';

export interface OfficerChange {
  action: OfficerAction;
  /** The officer as the register now has it. */
  officer: Officer;
  /** The officer as the snapshot had it; null when it did not. */
  previous: Officer | null;
}

const fold = (s: string) =>
  s
    .normalize('NFKC')
    .toLocaleLowerCase('en')
    .replace(/[\s\u00a0]+/g, ' ')
    .replace(/\s*([,.])\s*/g, '$1')
    .trim();

/** Who in which role: the same person in the same role is the same officer, however the register spaces or cases it. */
export function officerKey(o: Officer): string {
  return `${fold(o.name)}|${fold(o.role)}`;
}

function sameFacts(a: Officer, b: Officer): boolean {
  return a.appointedOn === b.appointedOn && a.resignedOn === b.resignedOn && a.kind === b.kind;
}

/**
 * The changes between the officer list a snapshot holds and a fresh read of it, one per
 * officer. Officers are matched by name and role (then by appointment date, for one person
 * appointed twice to one role). A new officer is `appointed` (or `resigned`, when the register
 * lists them already resigned: appointed and gone between two reads); an officer the register
 * no longer lists, or lists with a resignation date for the first time, `resigned`; a changed
 * appointment or resignation date, `details_changed`. An officer who had resigned and drops
 * off the list is not a change. Lists whose registers give no dates compare on who and what.
 */
export function diffOfficers(previous: Officer[], current: Officer[]): OfficerChange[] {
  const left = [...previous];
  const changes: OfficerChange[] = [];
  const unmatched: Officer[] = [];
  // Exact matches first (same facts), so that a re-appointment is told from a correction.
  for (const o of current) {
    const i = left.findIndex((p) => officerKey(p) === officerKey(o) && sameFacts(p, o));
    if (i >= 0) left.splice(i, 1);
    else unmatched.push(o);
  }
  for (const o of unmatched) {
    const i = left.findIndex(
      (p) => officerKey(p) === officerKey(o) && (p.appointedOn === o.appointedOn || !p.resignedOn),
    );
    const before = i >= 0 ? left.splice(i, 1)[0] : null;
    if (!before) changes.push({ action: o.resignedOn ? 'resigned' : 'appointed', officer: o, previous: null });
    else if (!before.resignedOn && o.resignedOn) changes.push({ action: 'resigned', officer: o, previous: before });
    else changes.push({ action: 'details_changed', officer: o, previous: before });
  }
  for (const p of left) if (!p.resignedOn) changes.push({ action: 'resigned', officer: p, previous: p });
  return changes;
}

/**
 * What a stream's officer event is, against what was known of that appointment (`previous`:
 * the resource as last sent, or the officer the snapshot's list holds): a resignation when it
 * carries a resignation date for the first time; an appointment when the appointment is new
 * to us and dated; otherwise a change of the officer's details.
 */
export function classifyStreamedOfficer(previous: Officer | null, officer: Officer): OfficerAction {
  if (officer.resignedOn && !previous?.resignedOn) return 'resigned';
  if (!previous && officer.appointedOn) return 'appointed';
  return 'details_changed';
}

/** An officer in one line, for `change.previous` and `change.current`: "NORRIS, Anthony Carmelo, Director, appointed 2016-08-25". */
export function officerSummary(o: Officer): string {
  return [
    o.name,
    o.role,
    o.appointedOn ? `appointed ${o.appointedOn}` : null,
    o.resignedOn ? `resigned ${o.resignedOn}` : null,
  ]
    .filter(Boolean)
    .join(', ');
}

/** The `change` of an officer event: what the snapshot had (null for a new officer) and what the register has now. */
export function officerChangeSummaries(c: OfficerChange): { previous: string | null; current: string | null } {
  if (c.action === 'appointed') return { previous: null, current: officerSummary(c.officer) };
  if (c.action === 'resigned' && c.previous === c.officer)
    // No longer listed: the register gives no resignation date.
    return { previous: officerSummary(c.previous), current: null };
  return { previous: c.previous ? officerSummary(c.previous) : null, current: officerSummary(c.officer) };
}

/** The list with `officer` in place of the entry it replaces (by appointment key and date), or added. */
export function withOfficer(list: Officer[], officer: Officer, replaces: Officer | null): Officer[] {
  const i = replaces
    ? list.findIndex((o) => officerKey(o) === officerKey(replaces) && o.appointedOn === replaces.appointedOn)
    : -1;
  return i >= 0 ? list.map((o, j) => (j === i ? officer : o)) : [...list, officer];
}
