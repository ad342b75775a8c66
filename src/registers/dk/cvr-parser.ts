import type { CompanyRecord, StatusCategory } from '../connector';
import { UpstreamError } from '../upstream-error';
import { allClosed, currentEntry, isObject, isoDate, Json, objects, text } from './cvr-json';

/** What a CVR document gives us, before the connector adds the provenance. */
export type CvrRecord = Omit<CompanyRecord, 'source'>;

/**
 * The `Vrvirksomhed` documents of an Elasticsearch `_search` answer of the CVR distribution.
 * Throws UpstreamError when the body is not such an answer or the search did not complete.
 */
export function parseCvrSearchBody(body: unknown): Json[] {
  if (!isObject(body) || !isObject(body.hits) || !Array.isArray(body.hits.hits)) {
    throw UpstreamError.invalidResponse('CVR answer is not an Elasticsearch search result (no hits.hits)');
  }
  const hits = objects(body.hits.hits);
  if (body.timed_out === true) throw new UpstreamError('timeout', 'CVR search timed out inside the register');
  const shards = isObject(body._shards) ? body._shards : {};
  if (hits.length === 0 && typeof shards.failed === 'number' && shards.failed > 0) {
    // An empty answer from a partly failed index would read as "no such company".
    throw UpstreamError.invalidResponse(`CVR search failed on ${shards.failed} shard(s)`);
  }
  return hits.map((hit) => {
    const source = isObject(hit._source) ? hit._source : null;
    if (!source || !isObject(source.Vrvirksomhed)) {
      throw UpstreamError.invalidResponse('CVR search hit without a Vrvirksomhed document');
    }
    return source.Vrvirksomhed;
  });
}

/** The 8-digit CVR number of a document, or null. */
export function cvrNumberOf(doc: Json): string | null {
  const raw = text(doc.cvrNummer);
  return raw && /^\d{1,8}$/.test(raw) ? raw.padStart(8, '0') : null;
}

/** Company record from a `Vrvirksomhed` document; throws UpstreamError without a number or a name. */
export function toCvrRecord(doc: Json): CvrRecord {
  const registrationNumber = cvrNumberOf(doc);
  const meta = isObject(doc.virksomhedMetadata) ? doc.virksomhedMetadata : {};
  const name = text(isObject(meta.nyesteNavn) ? meta.nyesteNavn.navn : null) ?? text(currentEntry(doc.navne)?.navn);
  if (!registrationNumber || !name) {
    throw UpstreamError.invalidResponse('CVR document without cvrNummer or name');
  }
  const form = isObject(meta.nyesteVirksomhedsform) ? meta.nyesteVirksomhedsform : currentEntry(doc.virksomhedsform);
  const address = isObject(meta.nyesteBeliggenhedsadresse)
    ? meta.nyesteBeliggenhedsadresse
    : currentEntry(doc.beliggenhedsadresse);
  const status = cvrStatus(doc);
  return {
    name,
    registrationNumber,
    country: 'DK',
    status,
    statusCategory: cvrStatusCategory(status),
    legalForm: text(form?.langBeskrivelse),
    address: address ? formatCvrAddress(address) : null,
    city: address ? text(address.postdistrikt) : null,
    incorporationDate: isoDate(meta.stiftelsesDato) ?? firstStart(doc.livsforloeb),
    extra: { reklamebeskyttet: typeof doc.reklamebeskyttet === 'boolean' ? doc.reklamebeskyttet : null },
  };
}

/**
 * The register's own status wording: the current `virksomhedsstatus`; for a company whose
 * lifetime has ended, the last status it had; else `virksomhedMetadata.sammensatStatus`;
 * and for a unit with no status at all (sole proprietorships) whose lifetime is closed, "Ophørt".
 */
export function cvrStatus(doc: Json): string | null {
  const statuses = objects(doc.virksomhedsstatus);
  const open = statuses.find((s) => isObject(s.periode) && s.periode.gyldigTil == null && text(s.status));
  if (open) return text(open.status);
  const ended = allClosed(doc.livsforloeb);
  if (ended && statuses.length > 0) {
    const last = text(currentEntry(statuses)?.status);
    if (last) return last;
  }
  const meta = isObject(doc.virksomhedMetadata) ? doc.virksomhedMetadata : {};
  const composite = text(meta.sammensatStatus);
  if (composite) return composite;
  return ended ? 'Ophørt' : null;
}

const ACTIVE = new Set(['NORMAL', 'AKTIV', 'UNDER REKONSTRUKTION']);
const IN_LIQUIDATION = new Set(['UNDER FRIVILLIG LIKVIDATION', 'UNDER TVANGSOPLØSNING', 'UNDER REASSUMERING']);
// Bankruptcy is insolvency, as for Norway's konkurs and GB's administration.
const INSOLVENCY = new Set(['UNDER KONKURS']);

/** Normalised category of a CVR status (shared/registers-dk-au-ca.md §1, status mapping). */
export function cvrStatusCategory(status: string | null): StatusCategory {
  if (!status) return 'unknown';
  const s = status.toLocaleUpperCase('da-DK').replace(/\s+/g, ' ').trim();
  if (ACTIVE.has(s)) return 'active';
  if (IN_LIQUIDATION.has(s)) return 'in_liquidation';
  if (INSOLVENCY.has(s)) return 'insolvency';
  if (s === 'TVANGSOPLØST') return 'struck_off';
  if (s.startsWith('OPLØST') || s === 'OPHØRT' || s === 'SLETTET') return 'dissolved';
  return 'unknown';
}

/**
 * One line from a CVR address: "c/o …, Vejnavn 12A-14, 3. th, Postboks 9, 1112 København K".
 * Foreign addresses come as `fritekst`.
 */
export function formatCvrAddress(a: Json): string | null {
  const number = [text(a.husnummerFra), text(a.bogstavFra)].join('');
  const numberTo = [text(a.husnummerTil), text(a.bogstavTil)].join('');
  const street = [text(a.vejnavn), number ? `${number}${numberTo ? `-${numberTo}` : ''}` : null]
    .filter(Boolean)
    .join(' ');
  const floor = text(a.etage);
  const door = text(a.sidedoer);
  const unit = [floor ? `${floor}.` : null, door].filter(Boolean).join(' ');
  const postbox = text(a.postboks);
  const town = [text(a.postnummer), text(a.postdistrikt)].filter(Boolean).join(' ');
  const free = text(a.fritekst)
    ?.split(/\s*\n\s*/)
    .join(', ');
  const country = text(a.landekode);
  const parts = [
    text(a.conavn) ? `c/o ${text(a.conavn)}` : null,
    street || null,
    unit || null,
    postbox ? `Postboks ${postbox}` : null,
    town || null,
    free ?? null,
    country && country !== 'DK' ? country : null,
  ].filter((p): p is string => !!p);
  return parts.length > 0 ? parts.join(', ') : null;
}

function firstStart(list: unknown): string | null {
  const starts = objects(list)
    .map((e) => (isObject(e.periode) ? isoDate(e.periode.gyldigFra) : null))
    .filter((d): d is string => d !== null)
    .sort();
  return starts[0] ?? null;
}
