import type { Readable } from 'node:stream';
import type { StatusCategory } from '../connector';
import { csvRecords, headerIndex } from '../bulk/csv-records';
import { DatasetFileError, ReaderContext, ReaderItem, RecordRejected, rejected, row } from '../bulk/dataset-row';
import { chStatus, formatChAddress } from './ch-api-parsers';
import { COMPANY_TYPE_LABELS, companyStatusCodeOfLabel } from './ch-constants';
import { dateDmy, requiredName, requiredNumber, text } from '../bulk/values';

/**
 * The CompanyStatus column holds Companies House's human labels ("Active", "Liquidation",
 * "In Administration", "Active - Proposal to Strike off"…). Labels the API's enumeration
 * knows are worded exactly as the GB connector words them (through its own chStatus); the
 * bulk-only labels (receiver variants) are kept as written and categorised here.
 */
export function gbStatus(label: string | null): { status: string | null; statusCategory: StatusCategory } {
  if (!label) return { status: null, statusCategory: 'unknown' };
  if (/^active\s*-\s*proposal to strike off$/i.test(label)) return chStatus('active', 'active-proposal-to-strike-off');
  const code = companyStatusCodeOfLabel(label);
  if (code) return chStatus(code);
  return { status: label, statusCategory: gbStatusCategory(label) };
}

export function gbStatusCategory(label: string): StatusCategory {
  const s = label.toLowerCase();
  if (s.startsWith('active') || s.startsWith('live') || s === 'registered' || s === 'open') return 'active';
  if (s.includes('liquidation')) return 'in_liquidation';
  if (/receiver|receivership|administration|voluntary arrangement|insolvency/.test(s)) return 'insolvency';
  if (s.startsWith('dissolved') || s.includes('converted') || s === 'closed' || s === 'removed') return 'dissolved';
  return 'unknown';
}

const TYPE_LABEL_BY_LOWER = new Map(Object.values(COMPANY_TYPE_LABELS).map((l) => [l.toLowerCase(), l]));

/** CompanyCategory ("Private Limited Company") in the connector's casing where the enumeration has it. */
export function gbLegalForm(category: string | null): string | null {
  return category ? (TYPE_LABEL_BY_LOWER.get(category.toLowerCase()) ?? category) : null;
}

// Companies House numbers: 8 digits, or 2 letters + 6 digits, or R + 7 digits (and a few
// letter-suffixed legacy forms); numeric ones lose their leading zeros in some tools.
const GB_NUMBER = /^[A-Z0-9]{1,8}$/;

function gbNumber(raw: string | undefined): string {
  const n = requiredNumber(raw?.toUpperCase().replace(/\s+/g, ''), GB_NUMBER, 'CompanyNumber');
  return /^\d+$/.test(n) ? n.padStart(8, '0') : n;
}

/**
 * A value of a column with few distinct values (status labels, dates), worked out once: on a
 * file of millions of lines the regular expressions and Date checks per line added up. At most
 * `limit` values are kept (then the memo starts again), so memory stays flat whatever the file.
 */
function memo<T>(compute: (value: string) => T, limit = 50_000): (value: string) => T {
  let known = new Map<string, T>();
  return (value) => {
    let result = known.get(value);
    if (result === undefined && !known.has(value)) {
      result = compute(value); // a RecordRejected is thrown, not kept
      if (known.size >= limit) known = new Map();
      known.set(value, result);
    }
    return result as T;
  };
}

/** What compactExtra({ sicCodes, dissolutionDate }) gives, in the same key order, without its generic walk. */
function gbExtra(sicCodes: string[], dissolutionDate: string | null): Record<string, unknown> | null {
  if (sicCodes.length === 0) return dissolutionDate === null ? null : { dissolutionDate };
  return dissolutionDate === null ? { sicCodes } : { sicCodes, dissolutionDate };
}

const SLASH = 47;
const DMY_DIGITS = [0, 1, 3, 4, 6, 7, 8, 9];

/**
 * A dd/mm/yyyy date as YYYY-MM-DD without a regular expression or a lookup, when it plainly
 * is one: ten characters, digits and slashes in place, a day no month lacks (1–28), a month
 * 1–12, a year from 1000. Anything else (empty, days 29–31, malformed) goes the checked way.
 */
function dmyDate(value: string, checked: (value: string) => string | null): string | null {
  if (value.length !== 10 || value.charCodeAt(2) !== SLASH || value.charCodeAt(5) !== SLASH)
    return value === '' ? null : checked(value);
  for (const i of DMY_DIGITS) {
    const c = value.charCodeAt(i);
    if (c < 48 || c > 57) return checked(value);
  }
  const day = (value.charCodeAt(0) - 48) * 10 + (value.charCodeAt(1) - 48);
  const month = (value.charCodeAt(3) - 48) * 10 + (value.charCodeAt(4) - 48);
  if (day < 1 || day > 28 || month < 1 || month > 12 || value.charCodeAt(6) === 48) return checked(value);
  return `${value.slice(6)}-${value.slice(3, 5)}-${value.slice(0, 2)}`;
}

/**
 * Companies House `BasicCompanyData` CSV (55 columns, quoted, header names with leading
 * spaces). One line per company; lines whose column count differs from the header are
 * rejected rather than read shifted.
 */
export async function* readGbBasicCompanyData(input: Readable, ctx: ReaderContext): AsyncGenerator<ReaderItem[]> {
  const web = ctx.urls.WEB;
  const webPlain = !/[\\\t\n\r]/.test(web);
  let header: string[] | undefined;
  let col!: Record<string, number>;
  let sicColumns: number[] = [];
  const keep: { columns: boolean[] | null } = { columns: null };
  const statusOf = memo((label: string) => gbStatus(text(label)), 1_000);
  const incorporationOf = memo((value: string) => dateDmy(value, 'IncorporationDate'));
  const dissolutionOf = memo((value: string) => dateDmy(value, 'DissolutionDate'));
  for await (const batch of csvRecords(input, { keep })) {
    // The items of the chunk, yielded together.
    const out: ReaderItem[] = [];
    for (const item of batch) {
      if (item.kind === 'rejected') {
        out.push(item);
        continue;
      }
      if (!header) {
        header = item.fields;
        const at = headerIndex(header);
        col = {
          name: at('CompanyName'),
          number: at('CompanyNumber'),
          careOf: at('RegAddress.CareOf'),
          poBox: at('RegAddress.POBox'),
          line1: at('RegAddress.AddressLine1'),
          line2: at('RegAddress.AddressLine2'),
          town: at('RegAddress.PostTown'),
          county: at('RegAddress.County'),
          country: at('RegAddress.Country'),
          postcode: at('RegAddress.PostCode'),
          category: at('CompanyCategory'),
          status: at('CompanyStatus'),
          dissolution: at('DissolutionDate'),
          incorporation: at('IncorporationDate'),
          sic1: at('SICCode.SicText_1'),
          sic2: at('SICCode.SicText_2'),
          sic3: at('SICCode.SicText_3'),
          sic4: at('SICCode.SicText_4'),
        };
        sicColumns = [col.sic1, col.sic2, col.sic3, col.sic4].filter((i) => i >= 0);
        // Only these columns are read from here on (the file has 55).
        keep.columns = header.map((_, i) => Object.values(col).includes(i));
        const missing = ['name', 'number', 'status', 'incorporation'].filter((k) => col[k] < 0);
        if (missing.length) {
          throw new DatasetFileError(
            `not a BasicCompanyData CSV: header lacks ${missing.map((m) => ({ name: 'CompanyName', number: 'CompanyNumber', status: 'CompanyStatus', incorporation: 'IncorporationDate' })[m]).join(', ')}`,
          );
        }
        continue;
      }
      const f = item.fields;
      if (f.length !== header.length) {
        out.push(rejected(item.line, 'wrong number of columns', `${f.length} instead of ${header.length}`));
        continue;
      }
      try {
        const registrationNumber = gbNumber(f[col.number]);
        const sicCodes: string[] = [];
        for (const i of sicColumns) {
          const sic = text(f[i]);
          if (sic !== null) sicCodes.push(sic);
        }
        const get = (i: number) => (i >= 0 ? f[i] : undefined);
        out.push(
          row({
            country: 'GB',
            registrationNumber,
            otherNumbers: [],
            name: requiredName(f[col.name], 'CompanyName'),
            ...statusOf(f[col.status]),
            legalForm: gbLegalForm(text(get(col.category))),
            address: formatChAddress({
              care_of: text(get(col.careOf)),
              po_box: text(get(col.poBox)),
              address_line_1: text(get(col.line1)),
              address_line_2: text(get(col.line2)),
              locality: text(get(col.town)),
              region: text(get(col.county)),
              country: text(get(col.country)),
              postal_code: text(get(col.postcode)),
            }),
            city: text(get(col.town)),
            incorporationDate: dmyDate(f[col.incorporation], incorporationOf),
            sourceUrl: `${web}/company/${registrationNumber}`,
            extra: gbExtra(sicCodes, col.dissolution >= 0 ? dmyDate(f[col.dissolution], dissolutionOf) : null),
            copyPlain: item.plain && webPlain,
          }),
        );
      } catch (err) {
        if (!(err instanceof RecordRejected)) throw err;
        out.push(rejected(item.line, err.reason, err.detail));
      }
    }
    if (out.length > 0) yield out;
  }
  if (!header) throw new DatasetFileError('empty file: no header line');
}
