import type { Readable } from 'node:stream';
import type { StatusCategory } from '../connector';
import { ReaderContext, ReaderItem, RecordRejected, rejected, row } from '../bulk/dataset-row';
import { compactExtra, dateCompact, joinAddress, text } from '../bulk/values';
import { child, children, textAt, XmlNode, xmlRecords } from '../bulk/xml-records';
import { abrRecordUrl } from './au-asic-companies.reader';
import { lookupTable } from '../../platform/lookup-table';

/** The bulk extract writes ABN status as ACT / CAN; ABN Lookup words them Active / Cancelled. */
const ABN_STATUS: Record<string, { status: string; category: StatusCategory }> = lookupTable({
  ACT: { status: 'Active', category: 'active' },
  CAN: { status: 'Cancelled', category: 'dissolved' },
});

const MAX_OTHER_NAMES = 20;

/** An individual's legal name as ABN Lookup shows it: "FAMILY, GIVEN OTHER". */
function individualName(n: XmlNode | undefined): string | null {
  if (!n) return null;
  const family = text(textAt(n, 'FamilyName'));
  const given = children(n, 'GivenName')
    .map((g) => text(g.text))
    .filter(Boolean)
    .join(' ');
  if (!family) return given || null;
  return given ? `${family}, ${given}` : family;
}

/**
 * The ABR's ABN bulk extract (`…PublicNN.xml`: root `<Transfer>`, optional `<TransferInfo>`
 * with the extract time, then one-line `<ABR>` records), streamed with sax. The ABN is the
 * key, the ACN (`ASICNumber`) goes to other_numbers. The ABR publishes only the state and
 * postcode of the main business location: the address is "STATE POSTCODE", city stays null,
 * and there is no incorporation date (the ABN status date is not one).
 */
export async function* readAuAbnBulk(input: Readable, ctx: ReaderContext): AsyncGenerator<ReaderItem> {
  const base = ctx.officialUrl;
  for await (const batch of xmlRecords(input, { recordElement: 'ABR', alsoCapture: ['TransferInfo'] })) {
    for (const item of batch) {
      if (item.kind === 'root') continue;
      if (item.kind === 'broken') {
        yield rejected(item.index, 'malformed XML', item.message);
        continue;
      }
      const r = item.node;
      if (r.name === 'TransferInfo') {
        const extracted = text(textAt(r, 'ExtractTime'));
        if (extracted && ctx.onProducedAt && !Number.isNaN(Date.parse(extracted)))
          ctx.onProducedAt(new Date(extracted));
        continue;
      }
      try {
        const abnNode = child(r, 'ABN');
        const abn = text(abnNode?.text)?.replace(/\s+/g, '');
        if (!abn) throw new RecordRejected('missing registration number', 'ABN');
        if (!/^\d{11}$/.test(abn))
          throw new RecordRejected('malformed registration number', `ABN "${abn.slice(0, 40)}"`);
        const statusCode = text(abnNode?.attrs.status)?.toUpperCase() ?? null;
        const known = statusCode ? ABN_STATUS[statusCode] : undefined;
        const main = child(r, 'MainEntity');
        const legal = child(r, 'LegalEntity');
        const entity = main ?? legal;
        const name = main
          ? text(textAt(main, 'NonIndividualName', 'NonIndividualNameText'))
          : individualName(child(legal, 'IndividualName'));
        if (!name)
          throw new RecordRejected('missing name', 'MainEntity/NonIndividualName or LegalEntity/IndividualName');
        const details = child(child(entity, 'BusinessAddress'), 'AddressDetails');
        const state = text(textAt(details, 'State'));
        const postcode = text(textAt(details, 'Postcode'));
        const acnRaw = text(textAt(r, 'ASICNumber'))?.replace(/\s+/g, '');
        const acn = acnRaw && /^\d{1,9}$/.test(acnRaw) ? acnRaw.padStart(9, '0') : null;
        const otherNames = children(r, 'OtherEntity')
          .map((o) => text(textAt(o, 'NonIndividualName', 'NonIndividualNameText')))
          .filter((n): n is string => n !== null)
          .slice(0, MAX_OTHER_NAMES);
        yield row({
          country: 'AU',
          registrationNumber: abn,
          otherNumbers: acn ? [acn] : [],
          name: name.replace(/\s+/g, ' '),
          status: known?.status ?? statusCode,
          statusCategory: known?.category ?? 'unknown',
          legalForm: text(textAt(r, 'EntityType', 'EntityTypeText')),
          address: joinAddress([[state, postcode].filter(Boolean).join(' ')]),
          city: null,
          incorporationDate: null,
          sourceUrl: abrRecordUrl(base, abn, acn ?? ''),
          extra: compactExtra({
            acn,
            entityTypeCode: text(textAt(r, 'EntityType', 'EntityTypeInd')),
            abnStatusFrom: dateCompact(abnNode?.attrs.ABNStatusFromDate, 'ABN/@ABNStatusFromDate'),
            gstStatus: text(child(r, 'GST')?.attrs.status),
            otherNames,
            replaced: r.attrs.replaced === 'Y' ? true : null,
          }),
        });
      } catch (err) {
        if (!(err instanceof RecordRejected)) throw err;
        yield rejected(item.index, err.reason, err.detail);
      }
    }
  }
}
