import type { Officer } from '../connector';
import { currentEntry, isObject, Json, objects, periodOf, text } from './cvr-json';

/**
 * Officers from `deltagerRelation[]`: every role the document carries — management bodies
 * (Direktion, Bestyrelse), partners, founders, auditors, owner registers ("Reel ejer",
 * EJERREGISTER), anti-money-laundering managers — one entry per role period, in document order.
 *
 * The role is the member's FUNKTION value as the register words it ("DIREKTØR", "FORMAND",
 * "Reel ejer"…). Members without a FUNKTION (legal owners in EJERREGISTER) take the body's own
 * FUNKTION or name, with the span of their other attributes' periods.
 */
export function parseCvrOfficers(doc: Json): Officer[] {
  const officers: Officer[] = [];
  for (const relation of objects(doc.deltagerRelation)) {
    const participant = isObject(relation.deltager) ? relation.deltager : null;
    const name = participant ? text(currentEntry(participant.navne)?.navn) : null;
    if (!participant || !name) continue;
    const kind: Officer['kind'] = text(participant.enhedstype) === 'PERSON' ? 'person' : 'company';
    for (const body of objects(relation.organisationer)) {
      const members = objects(body.medlemsData);
      const functions = members.flatMap((m) => valuesOf(m.attributter, 'FUNKTION'));
      if (functions.length > 0) {
        for (const f of functions) {
          const role = text(f.vaerdi);
          if (!role) continue;
          const p = periodOf(f);
          officers.push({ name, role, kind, appointedOn: p.from, resignedOn: p.to });
        }
        continue;
      }
      const role =
        text(currentEntry(valuesOf(body.attributter, 'FUNKTION'))?.vaerdi) ??
        text(currentEntry(body.organisationsNavn)?.navn);
      if (!role) continue;
      const span = spanOf(members.flatMap((m) => objects(m.attributter).flatMap((a) => objects(a.vaerdier))));
      officers.push({ name, role, kind, appointedOn: span.from, resignedOn: span.to });
    }
  }
  return officers;
}

function valuesOf(attributes: unknown, type: string): Json[] {
  return objects(attributes)
    .filter((a) => a.type === type)
    .flatMap((a) => objects(a.vaerdier));
}

/** Earliest start and, unless one period is still open, latest end of a set of periods. */
function spanOf(entries: Json[]): { from: string | null; to: string | null } {
  if (entries.length === 0) return { from: null, to: null };
  const periods = entries.map(periodOf);
  const starts = periods
    .map((p) => p.from)
    .filter((d): d is string => d !== null)
    .sort();
  const open = periods.some((p) => p.to === null);
  const ends = periods
    .map((p) => p.to)
    .filter((d): d is string => d !== null)
    .sort();
  return { from: starts[0] ?? null, to: open ? null : (ends[ends.length - 1] ?? null) };
}
