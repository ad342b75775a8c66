import { z } from 'zod';
import type { Officer } from '../connector';
import { UpstreamError } from '../upstream-error';
import { aresDate, clean } from './ares-values';

type Json = Record<string, unknown>;

const vrBody = z.object({ icoId: z.string().nullish().catch(null), zaznamy: z.array(z.unknown()) });

/** One registered version of a member of a body: VR keeps every version, each with its entry and removal date. */
interface Version {
  organ: number;
  name: string;
  role: string;
  kind: Officer['kind'];
  /** Who the version is about: birth date and first name of a person, IČO of a company. */
  identity: { birth: string | null; first: string | null; ico: string | null };
  registered: string | null;
  removed: string | null;
  /** The function's own dates (`vznikFunkce`/`zanikFunkce`, or `vznikClenstvi`/`zanikClenstvi`). */
  start: string | null;
  end: string | null;
}

/**
 * Officers from `GET /ekonomicke-subjekty-vr/{ico}`: the members of the statutory bodies
 * (`statutarniOrgany`, which also hold the prokura) and of the other bodies (`ostatniOrgany`,
 * e.g. the supervisory board) of the primary record; shareholders are not officers. Current ones
 * first (resignedOn null), then former ones, most recently ended first.
 *
 * VR is a version history: a `datumVymazu` on a member ends that version, which is often
 * replaced on the same day by a new version of the same person (a changed surname or address),
 * so versions of one person in one role are joined into one tenure, and a person is current
 * only while the last version has no removal date and no end of function (registers-next.md §2
 * quirks). A tenure starts at the function's start or else at its first entry, and ends at the
 * function's end or else at the removal of its last version, of its body, or of the subject from VR.
 */
export function parseVrOfficers(body: unknown): Officer[] {
  const parsed = vrBody.safeParse(body);
  if (!parsed.success) throw UpstreamError.invalidResponse('ARES sent a VR record without zaznamy');
  const records = parsed.data.zaznamy.filter(isObject);
  const record = records.find((r) => r.primarniZaznam === true) ?? records[0];
  if (!record) return [];
  const subjectEnd = aresDate(record.datumVymazu);
  const organs = [...objects(record.statutarniOrgany), ...objects(record.ostatniOrgany)];
  const current: Officer[] = [];
  const former: Officer[] = [];
  organs.forEach((organ, index) => {
    const versions = objects(organ.clenoveOrganu)
      .map((member) => toVersion(member, organ, index))
      .filter((v): v is Version => v !== null)
      .sort((a, b) => (a.registered ?? '').localeCompare(b.registered ?? ''));
    for (const tenure of tenures(versions)) {
      const first = tenure[0];
      const last = tenure[tenure.length - 1];
      const starts = tenure.map((v) => v.start).filter((d): d is string => d !== null);
      const resignedOn = last.end ?? last.removed ?? aresDate(organ.datumVymazu) ?? subjectEnd;
      const officer: Officer = {
        name: last.name,
        role: last.role,
        kind: last.kind,
        appointedOn: starts.sort()[0] ?? first.registered,
        resignedOn,
      };
      (resignedOn ? former : current).push(officer);
    }
  });
  former.sort((a, b) => (b.resignedOn ?? '').localeCompare(a.resignedOn ?? ''));
  return [...current, ...former];
}

/** Versions joined into tenures: a version removed on the day a version of the same person in the same role is entered continues in it. */
function tenures(versions: Version[]): Version[][] {
  const chains: Version[][] = [];
  const open = new Set<Version[]>();
  for (const v of versions) {
    const chain = [...open].find((c) => continues(c[c.length - 1], v));
    if (chain) {
      chain.push(v);
      if (v.removed === null || v.end !== null) open.delete(chain);
      continue;
    }
    const fresh = [v];
    chains.push(fresh);
    if (v.removed !== null && v.end === null) open.add(fresh);
  }
  return chains;
}

function continues(previous: Version, next: Version): boolean {
  if (previous.removed === null || previous.end !== null || previous.removed !== next.registered) return false;
  if (previous.kind !== next.kind || previous.role.toLowerCase() !== next.role.toLowerCase()) return false;
  const [a, b] = [previous.identity, next.identity];
  if (a.ico || b.ico) return a.ico === b.ico;
  if (a.birth && b.birth) return a.birth === b.birth && a.first?.toLowerCase() === b.first?.toLowerCase();
  return previous.name.toLowerCase() === next.name.toLowerCase();
}

function toVersion(member: Json, organ: Json, index: number): Version | null {
  const clenstvi = isObject(member.clenstvi) ? member.clenstvi : {};
  const funkce = isObject(clenstvi.funkce) ? clenstvi.funkce : {};
  const membership = isObject(clenstvi.clenstvi) ? clenstvi.clenstvi : {};
  const role = clean(funkce.nazev) ?? clean(member.nazevAngazma) ?? clean(organ.nazevOrganu);
  const person = isObject(member.fyzickaOsoba) ? member.fyzickaOsoba : null;
  const company = isObject(member.pravnickaOsoba) ? member.pravnickaOsoba : null;
  const name = person
    ? personName(person)
    : company
      ? (clean(company.obchodniJmeno) ?? clean(company.textOsoba))
      : null;
  if (!role || !name) return null;
  return {
    organ: index,
    name,
    role,
    kind: person ? 'person' : 'company',
    identity: {
      birth: person ? aresDate(person.datumNarozeni) : null,
      first: person ? clean(person.jmeno) : null,
      ico: company && typeof company.ico === 'string' && /^\d{8}$/.test(company.ico) ? company.ico : null,
    },
    registered: aresDate(member.datumZapisu),
    removed: aresDate(member.datumVymazu),
    start: aresDate(funkce.vznikFunkce) ?? aresDate(membership.vznikClenstvi),
    end: aresDate(funkce.zanikFunkce) ?? aresDate(membership.zanikClenstvi),
  };
}

/**
 * "Ing. LENKA KUČEROVÁ", "Jan Novák, Ph.D.", as the register spells them. Old entries have no
 * first name and free text in the surname with a birth note ("Anne - Marie Dewinter , nar.
 * 19.9.1933"): the note is dropped, as birth dates are not served.
 */
function personName(p: Json): string | null {
  const given = clean(p.jmeno);
  const family = clean(p.prijmeni);
  const base =
    given || family ? [clean(p.titulPredJmenem), given, family].filter(Boolean).join(' ') : clean(p.textOsoba);
  if (!base) return null;
  const suffix = clean(p.titulZaJmenem);
  const name = (suffix ? `${base}, ${suffix}` : base).replace(BIRTH_NOTE, '').replace(/\s+,/g, ',').trim();
  return name || null;
}

const BIRTH_NOTE = /\s*,?\s*(?:nar\.|narozen[áa]?)\s*\d{1,2}\s*\.\s*\d{1,2}\s*\.\s*\d{4}\s*$/i;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objects(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}
