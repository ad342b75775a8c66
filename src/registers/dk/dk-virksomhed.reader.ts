import type { Readable } from 'node:stream';
import { cvrNumberOf, toCvrRecord } from './cvr-parser';
import { fromConnectorRecord, ReaderContext, ReaderItem, RecordRejected, rejected, row } from '../bulk/dataset-row';
import { textLines } from '../bulk/text-lines';
import { dateIso } from '../bulk/values';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The Vrvirksomhed document of one line: a whole hit, its `_source`, or the document itself. */
function documentOf(value: unknown): Record<string, unknown> | null {
  if (!isObject(value)) return null;
  const source = isObject(value._source) ? value._source : value;
  return isObject(source.Vrvirksomhed) ? source.Vrvirksomhed : null;
}

/**
 * A dump of CVR `virksomhed` documents as a scroll over the distribution produces it: one
 * Elasticsearch hit per line (`{"_source":{"Vrvirksomhed":{…}}}`). Each document goes
 * through the DK connector's own parser (status wording and fallbacks, address, legal form,
 * `reklamebeskyttet` in extra).
 */
export async function* readDkVirksomhed(input: Readable, ctx: ReaderContext): AsyncGenerator<ReaderItem> {
  const web = ctx.urls.WEB;
  for await (const lines of textLines(input)) {
    for (const { line, number } of lines) {
      if (line.trim() === '') continue;
      try {
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch (err) {
          throw new RecordRejected('malformed JSON', (err as Error).message.slice(0, 120));
        }
        const doc = documentOf(value);
        if (!doc) throw new RecordRejected('not a virksomhed document', 'no _source.Vrvirksomhed');
        if (doc.cvrNummer === undefined || doc.cvrNummer === null || doc.cvrNummer === '')
          throw new RecordRejected('missing registration number', 'cvrNummer');
        if (!cvrNumberOf(doc))
          throw new RecordRejected(
            'malformed registration number',
            `cvrNummer ${JSON.stringify(doc.cvrNummer).slice(0, 40)}`,
          );
        const meta = isObject(doc.virksomhedMetadata) ? doc.virksomhedMetadata : {};
        if (typeof meta.stiftelsesDato === 'string') dateIso(meta.stiftelsesDato, 'virksomhedMetadata.stiftelsesDato');
        let record;
        try {
          record = toCvrRecord(doc);
        } catch {
          // The number was checked above: what the connector's parser misses is the name.
          throw new RecordRejected('missing name', 'virksomhedMetadata.nyesteNavn.navn / navne');
        }
        // Without a founding date the parser takes the first period's start, unchecked so far.
        if (typeof meta.stiftelsesDato !== 'string') dateIso(record.incorporationDate, 'livsforloeb.periode.gyldigFra');
        yield row(fromConnectorRecord(record, `${web}/enhed/virksomhed/${record.registrationNumber}`));
      } catch (err) {
        if (!(err instanceof RecordRejected)) throw err;
        yield rejected(number, err.reason, err.detail);
      }
    }
  }
}
