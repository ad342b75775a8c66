import type { Readable } from 'node:stream';
import { jsonArrayBatches } from '../bulk/json-array-elements';
import { fromConnectorRecord, ReaderContext, ReaderItem, RecordRejected, rejected, row } from '../bulk/dataset-row';
import { requiredName, requiredNumber } from '../bulk/values';
import { BUSINESS_ID } from './fi.identifier';
import { parsePrhCompany, prhDate, prhName, prhRecordUrl } from './prh-parsers';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * PRH's daily `/all_companies` file: a zip holding one JSON array (`data_<yyyymmdd>.json`,
 * about 1.5 GB) of the same company objects `/companies` answers, streamed element by element.
 * Each element goes through the FI connector's own parser, so name, status wording, legal form
 * and address are exactly what a live read says.
 */
export async function* readFiAllCompanies(input: Readable, ctx: ReaderContext): AsyncGenerator<ReaderItem[]> {
  const web = ctx.urls.WEB ?? ctx.officialUrl;
  let index = 0;
  for await (const batch of jsonArrayBatches(input)) {
    const out: ReaderItem[] = [];
    for (const value of batch) {
      index += 1;
      try {
        if (!isObject(value)) throw new RecordRejected('not a company object', typeof value);
        const businessId = isObject(value.businessId) ? value.businessId.value : undefined;
        requiredNumber(typeof businessId === 'string' ? businessId : undefined, BUSINESS_ID, 'businessId.value');
        requiredName(prhName(value) ?? undefined, 'names (type 1)');
        for (const field of ['registrationDate', 'endDate'] as const) {
          const date = value[field];
          if (typeof date === 'string' && date.trim() !== '' && prhDate(date) === null)
            throw new RecordRejected('bad date', `${field} "${date.slice(0, 40)}"`);
        }
        let record;
        try {
          record = parsePrhCompany(value);
        } catch (err) {
          throw new RecordRejected('invalid company', (err as Error).message);
        }
        out.push(row(fromConnectorRecord(record, prhRecordUrl(web, record.registrationNumber))));
      } catch (err) {
        if (!(err instanceof RecordRejected)) throw err;
        out.push(rejected(index, err.reason, err.detail));
      }
    }
    yield out;
  }
}
