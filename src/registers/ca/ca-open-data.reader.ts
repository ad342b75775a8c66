import type { Readable } from 'node:stream';
import { CA_STATUS_WORDING, corpCanStatusCategory } from './corpcan-parser';
import { ReaderContext, ReaderItem, RecordRejected, rejected, row } from '../bulk/dataset-row';
import { compactExtra, dateIso, joinAddress, text } from '../bulk/values';
import { child, children, textAt, XmlNode, xmlRecords } from '../bulk/xml-records';
import { lookupTable } from '../../platform/lookup-table';

/**
 * Governing act codes. Only the two confirmed by a real record and the documentation are
 * mapped; any other code leaves legalForm null and is kept in `extra.actCode` (the open
 * data's codes file, not available here, would complete this list).
 */
export const CA_ACTS: Record<string, string> = lookupTable({
  '6': 'Canada Business Corporations Act',
  '8': 'Boards of Trade Act — Part II',
});

const INCORPORATION_ACTIVITY = '1';
const REGISTERED_OFFICE = '2';

/** As the CA connector words an address: "207 - 32900 SOUTH FRASER WAY, ABBOTSFORD BC V2S 5A1", the country only outside Canada. */
function formatOffice(a: XmlNode): string | null {
  const locality = [text(textAt(a, 'city')), text(child(a, 'province')?.attrs.code), text(textAt(a, 'postalCode'))]
    .filter(Boolean)
    .join(' ');
  const country = text(child(a, 'country')?.attrs.code);
  return joinAddress([
    ...children(a, 'addressLine').map((l) => l.text),
    locality,
    country && country !== 'CA' ? country : null,
  ]);
}

function current(nodes: XmlNode[]): XmlNode | undefined {
  return nodes.find((n) => n.attrs.current === 'true');
}

/**
 * Corporations Canada federal corporations open data (`OPEN_DATA_n.xml`, root
 * `<cc:corpcan date="…">` → `<corporations>` → `<corporation corporationId>`), streamed with
 * sax. Status wording and category come from the CA connector's own table. Current name, status, act and registered office are the elements marked
 * `current="true"`; the incorporation date is activity code 1; BN9s go to other_numbers.
 */
export async function* readCaOpenData(input: Readable, ctx: ReaderContext): AsyncGenerator<ReaderItem> {
  const web = ctx.urls.WEB;
  for await (const batch of xmlRecords(input, { recordElement: 'corporation' })) {
    for (const item of batch) {
      if (item.kind === 'root') {
        const date = item.node.attrs.date;
        if (date && ctx.onProducedAt && !Number.isNaN(Date.parse(date)))
          ctx.onProducedAt(new Date(date.endsWith('Z') || /[+-]\d\d:?\d\d$/.test(date) ? date : `${date}Z`));
        continue;
      }
      if (item.kind === 'broken') {
        yield rejected(item.index, 'malformed XML', item.message);
        continue;
      }
      const c = item.node;
      try {
        const id = text(c.attrs.corporationId);
        if (!id) throw new RecordRejected('missing registration number', 'corporationId');
        if (!/^\d{1,9}$/.test(id))
          throw new RecordRejected('malformed registration number', `corporationId "${id.slice(0, 40)}"`);
        const names = children(child(c, 'names'), 'name');
        const name = text((current(names) ?? names.find((n) => !n.attrs.expiryDate))?.text);
        if (!name) throw new RecordRejected('missing name', 'names/name[@current]');
        const statusCode = current(children(child(c, 'statuses'), 'status'))?.attrs.code ?? null;
        const status = statusCode ? (CA_STATUS_WORDING[statusCode] ?? null) : null;
        const actCode = current(children(child(c, 'acts'), 'act'))?.attrs.code ?? null;
        const addresses = children(child(c, 'addresses'), 'address').filter((a) => a.attrs.current === 'true');
        const office = addresses.find((a) => a.attrs.code === REGISTERED_OFFICE) ?? addresses[0];
        const city = text(textAt(office, 'city'));
        const incorporation = children(child(c, 'activities'), 'activity').find(
          (a) => a.attrs.code === INCORPORATION_ACTIVITY,
        );
        const bns = children(child(c, 'businessNumbers'), 'businessNumber')
          .map((b) => b.text.replace(/\s+/g, ''))
          .filter((b) => /^\d{9}/.test(b))
          .map((b) => b.slice(0, 9));
        yield row({
          country: 'CA',
          registrationNumber: id,
          otherNumbers: [...new Set(bns)],
          name: name.replace(/\s+/g, ' '),
          status,
          statusCategory: corpCanStatusCategory(status),
          legalForm: actCode ? (CA_ACTS[actCode] ?? null) : null,
          address: office ? formatOffice(office) : null,
          city,
          incorporationDate: dateIso(incorporation?.attrs.date, 'activity[@code=1]/@date'),
          sourceUrl: `${web}/fdrlCrpDtls.html?corpId=${id}`,
          extra: compactExtra({
            businessNumber: bns[0],
            statusCode: status ? null : statusCode,
            actCode: actCode && CA_ACTS[actCode] ? null : actCode,
          }),
        });
      } catch (err) {
        if (!(err instanceof RecordRejected)) throw err;
        yield rejected(item.index, err.reason, err.detail);
      }
    }
  }
}
