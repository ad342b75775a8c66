import type { Readable } from 'node:stream';
import type { StatusCategory } from '../connector';
import { csvRecords, headerIndex } from '../bulk/csv-records';
import { DatasetFileError, ReaderContext, ReaderItem, RecordRejected, rejected, row } from '../bulk/dataset-row';
import { peekFirstLine } from '../bulk/open-input';
import { compactExtra, dateDmy, requiredName, text } from '../bulk/values';
import { lookupTable } from '../../platform/lookup-table';

/** ASIC organisation status codes with ASIC's wording and the reference's categories. */
export const ASIC_STATUS: Record<string, { status: string; category: StatusCategory }> = lookupTable({
  REGD: { status: 'Registered', category: 'active' },
  DRGD: { status: 'Deregistered', category: 'dissolved' },
  EXAD: { status: 'External administration', category: 'in_liquidation' },
  SOFF: { status: 'Strike-off action in progress', category: 'struck_off' },
  NOAC: { status: 'Not active', category: 'unknown' },
  NRGD: { status: 'Not registered', category: 'unknown' },
  PROV: { status: 'Provisional', category: 'unknown' },
  DISS: { status: 'Dissolved by Special Act of Parliament', category: 'dissolved' },
  DIV3: { status: 'Organisation transferred registration via DIV3', category: 'dissolved' },
  PEND: { status: 'Pending - schemes', category: 'unknown' },
});

const ASIC_TYPE: Record<string, string> = lookupTable({
  APTY: 'Australian Proprietary Company',
  APUB: 'Australian Public Company',
});

const ASIC_CLASS: Record<string, string> = lookupTable({
  LMSH: 'Limited by Shares',
  LMGT: 'Limited by Guarantee',
  LMSG: 'Limited by Shares and Guarantee',
  NLIA: 'No Liability',
  UNLM: 'Unlimited',
});

/** The ABN Lookup page of an ABN; companies without an ABN get the ABN Lookup search for their ACN. */
export function abrRecordUrl(base: string, abn: string | null, acn: string): string {
  return abn ? `${base}/ABN/View?abn=${abn}` : `${base}/Search/ResultsActive?SearchText=${acn}`;
}

/**
 * ASIC's company dataset (data.gov.au), tab- or comma-delimited (sniffed from the header
 * line). The file repeats a company once per former name; only the row whose
 * `Current Name Indicator` is Y becomes the company, former-name rows are skipped.
 *
 * A company is keyed by its ABN when ASIC gives one, its ACN in other_numbers, so that it
 * meets the same company from the ABN bulk extract and the live ABN Lookup; without an ABN
 * the ACN is the key.
 */
export async function* readAuAsicCompanies(input: Readable, ctx: ReaderContext): AsyncGenerator<ReaderItem> {
  const base = ctx.officialUrl;
  const { firstLine, stream } = await peekFirstLine(input);
  const delimiter = firstLine.includes('\t') ? '\t' : ',';
  let header: string[] | undefined;
  let at!: (name: string) => number;
  for await (const batch of csvRecords(stream, { delimiter, relaxQuotes: delimiter === '\t' })) {
    for (const item of batch) {
      if (item.kind === 'rejected') {
        yield item;
        continue;
      }
      if (!header) {
        header = item.fields;
        at = headerIndex(header);
        const missing = ['Company Name', 'ACN', 'Status', 'Current Name Indicator'].filter((c) => at(c) < 0);
        if (missing.length)
          throw new DatasetFileError(`not an ASIC company dataset: header lacks ${missing.join(', ')}`);
        continue;
      }
      const f = item.fields;
      if (f.length !== header.length) {
        yield rejected(item.line, 'wrong number of columns', `${f.length} instead of ${header.length}`);
        continue;
      }
      const get = (name: string): string | undefined => {
        const i = at(name);
        return i >= 0 ? f[i] : undefined;
      };
      if ((text(get('Current Name Indicator')) ?? '').toUpperCase() !== 'Y') {
        yield { kind: 'skipped', reason: 'former-name row' };
        continue;
      }
      try {
        const acnRaw = text(get('ACN'))?.replace(/\s+/g, '');
        if (!acnRaw) throw new RecordRejected('missing registration number', 'ACN');
        if (!/^\d{1,9}$/.test(acnRaw))
          throw new RecordRejected('malformed registration number', `ACN "${acnRaw.slice(0, 40)}"`);
        const acn = acnRaw.padStart(9, '0');
        const abnRaw = text(get('ABN'))?.replace(/\s+/g, '') ?? null;
        if (abnRaw !== null && !/^\d{11}$/.test(abnRaw))
          throw new RecordRejected('malformed registration number', `ABN "${abnRaw.slice(0, 40)}"`);
        const abn = abnRaw;
        const code = text(get('Status'))?.toUpperCase() ?? null;
        const known = code ? ASIC_STATUS[code] : undefined;
        const type = text(get('Type'))?.toUpperCase() ?? null;
        const klass = text(get('Class'))?.toUpperCase() ?? null;
        const legalForm =
          [type ? (ASIC_TYPE[type] ?? type) : null, klass ? (ASIC_CLASS[klass] ?? klass) : null]
            .filter(Boolean)
            .join(', ') || null;
        yield row({
          country: 'AU',
          registrationNumber: abn ?? acn,
          otherNumbers: abn ? [acn] : [],
          name: requiredName(get('Company Name'), 'Company Name'),
          status: known?.status ?? code,
          statusCategory: known?.category ?? 'unknown',
          legalForm,
          address: null,
          city: null,
          incorporationDate: dateDmy(get('Date of Registration'), 'Date of Registration'),
          sourceUrl: abrRecordUrl(base, abn, acn),
          extra: compactExtra({
            acn,
            asicStatusCode: code,
            asicType: type,
            asicClass: klass,
            asicSubClass: text(get('Sub Class'))?.toUpperCase(),
            deregistrationDate: dateDmy(get('Date of Deregistration'), 'Date of Deregistration'),
            previousStateOfRegistration: text(get('Previous State of Registration')),
          }),
        });
      } catch (err) {
        if (!(err instanceof RecordRejected)) throw err;
        yield rejected(item.line, err.reason, err.detail);
      }
    }
  }
  if (!header) throw new DatasetFileError('empty file: no header line');
}
