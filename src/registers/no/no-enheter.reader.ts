import type { Readable } from 'node:stream';
import { parseEnhet } from './brreg-parsers';
import { jsonArrayBatches } from '../bulk/json-array-elements';
import { fromConnectorRecord, ReaderContext, ReaderItem, RecordRejected, rejected, row } from '../bulk/dataset-row';
import { dateIso, requiredName, requiredNumber } from '../bulk/values';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Brønnøysund's `enheter` bulk file (`/enheter/lastned`: a gzipped JSON array of the same
 * Enhet objects `/enheter/{orgnr}` answers), streamed element by element.
 * Each element goes through the NO connector's own parser, so status wording, address and
 * legal form are exactly what a live read says.
 */
export async function* readNoEnheter(input: Readable, ctx: ReaderContext): AsyncGenerator<ReaderItem[]> {
  const web = ctx.urls.WEB;
  let index = 0;
  // Dates already found valid: a million units have a few tens of thousands of distinct dates,
  // and checking each again (a regular expression, a Date) cost 0.37 s of the importer's 8 s of
  // CPU on 300 k units.
  let validDates = new Set<string>();
  for await (const batch of jsonArrayBatches(input)) {
    // The items of the chunk, yielded together.
    const out: ReaderItem[] = [];
    for (const value of batch) {
      index += 1;
      try {
        if (!isObject(value)) throw new RecordRejected('not a unit object', typeof value);
        requiredNumber(
          typeof value.organisasjonsnummer === 'string' ? value.organisasjonsnummer : undefined,
          /^\d{9}$/,
          'organisasjonsnummer',
        );
        requiredName(typeof value.navn === 'string' ? value.navn : undefined, 'navn');
        for (const field of ['stiftelsesdato', 'registreringsdatoEnhetsregisteret', 'slettedato']) {
          const v = value[field];
          if (typeof v !== 'string' || validDates.has(v)) continue;
          dateIso(v, field);
          if (validDates.size >= 100_000) validDates = new Set();
          validDates.add(v);
        }
        let record;
        try {
          record = parseEnhet(value);
        } catch (err) {
          throw new RecordRejected('invalid unit', (err as Error).message);
        }
        out.push(row(fromConnectorRecord(record, `${web}/nb/oppslag/enheter/${record.registrationNumber}`)));
      } catch (err) {
        if (!(err instanceof RecordRejected)) throw err;
        out.push(rejected(index, err.reason, err.detail));
      }
    }
    yield out;
  }
}
