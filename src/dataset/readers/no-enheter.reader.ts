import type { Readable } from 'node:stream';
import { parser } from 'stream-json';
import { streamArray } from 'stream-json/streamers/StreamArray';
import { parseEnhet } from '../../registers/connectors/no/brreg-parsers';
import { DatasetFileError, fromConnectorRecord, ReaderContext, ReaderItem, RecordRejected, rejected, row } from '../import/dataset-row';
import { dateIso, requiredName, requiredNumber } from '../import/values';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The elements of a JSON array, streamed; a file that is not one is a DatasetFileError. */
async function* jsonArrayElements(input: Readable): AsyncGenerator<unknown> {
  // Packed values only (the assembler needs no per-character tokens) and token queues of a few
  // thousand between the two stages instead of 16: together about twice as fast. The queues
  // hold tokens and at most 256 assembled units, so memory stays flat.
  const tokens = parser({ packValues: true, streamValues: false, streamKeys: false, streamStrings: false, streamNumbers: false, readableHighWaterMark: 4096 });
  const elements = streamArray({ writableHighWaterMark: 4096, readableHighWaterMark: 256 });
  let inputError: Error | undefined;
  input.on('error', (err) => {
    inputError = err;
    tokens.destroy(err);
  });
  tokens.on('error', (err) => elements.destroy(err));
  input.pipe(tokens).pipe(elements);
  let count = 0;
  try {
    for await (const { value } of elements as AsyncIterable<{ key: number; value: unknown }>) {
      count += 1;
      yield value;
    }
  } catch (err) {
    // A read or gunzip error stays itself; a file that is not a JSON array ends the import.
    if (err === inputError || err instanceof DatasetFileError) throw err;
    throw new DatasetFileError(`not a JSON array of units (after element ${count}): ${(err as Error).message}`);
  }
}

/**
 * Brønnøysund's `enheter` bulk file (`/enheter/lastned`: a gzipped JSON array of the same
 * Enhet objects `/enheter/{orgnr}` answers), streamed element by element with stream-json.
 * Each element goes through the NO connector's own parser, so status wording, address and
 * legal form are exactly what a live read says.
 */
export async function* readNoEnheter(input: Readable, ctx: ReaderContext): AsyncGenerator<ReaderItem> {
  const web = ctx.urls.WEB;
  let index = 0;
  for await (const value of jsonArrayElements(input)) {
    index += 1;
    try {
      if (!isObject(value)) throw new RecordRejected('not a unit object', typeof value);
      requiredNumber(typeof value.organisasjonsnummer === 'string' ? value.organisasjonsnummer : undefined, /^\d{9}$/, 'organisasjonsnummer');
      requiredName(typeof value.navn === 'string' ? value.navn : undefined, 'navn');
      for (const field of ['stiftelsesdato', 'registreringsdatoEnhetsregisteret', 'slettedato']) {
        const v = value[field];
        if (typeof v === 'string') dateIso(v, field);
      }
      let record;
      try {
        record = parseEnhet(value);
      } catch (err) {
        throw new RecordRejected('invalid unit', (err as Error).message);
      }
      yield row(fromConnectorRecord(record, `${web}/nb/oppslag/enheter/${record.registrationNumber}`));
    } catch (err) {
      if (!(err instanceof RecordRejected)) throw err;
      yield rejected(index, err.reason, err.detail);
    }
  }
}
