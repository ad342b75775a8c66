import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { RegistersConfig } from '../../src/registers/register-config';
import { CountryCode, findRegister } from '../../src/registers/registers';
import type { DatasetReader, DatasetRow, ReaderContext, Rejection } from '../../src/registers/bulk/dataset-row';

// Test support for the dataset specs: real fixtures shaped as the bulk files hold them.

export const FIXTURES = join(__dirname, '..', 'fixtures');

export function fixtureText(relativePath: string): string {
  return readFileSync(join(FIXTURES, relativePath), 'utf8');
}

export function fixtureJson<T = unknown>(relativePath: string): T {
  return JSON.parse(fixtureText(relativePath)) as T;
}

export function readerContext(country: CountryCode, onProducedAt?: (d: Date) => void): ReaderContext {
  const registers = RegistersConfig.fromEnv({});
  return { urls: registers.of(country).urls, officialUrl: findRegister(country)!.officialUrl, onProducedAt };
}

/** Feeds text in small chunks, so records cross chunk boundaries as they do in real files. */
export function chunked(text: string | Buffer, size = 7): Readable {
  const buf = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  const chunks: Buffer[] = [];
  for (let i = 0; i < buf.length; i += size) chunks.push(buf.subarray(i, i + size));
  return Readable.from(chunks, { objectMode: false });
}

export interface Collected {
  rows: DatasetRow[];
  rejections: Rejection[];
  skipped: string[];
}

export async function collect(reader: DatasetReader, input: Readable, ctx: ReaderContext): Promise<Collected> {
  const out: Collected = { rows: [], rejections: [], skipped: [] };
  for await (const got of reader(input, ctx)) {
    for (const item of Array.isArray(got) ? got : [got]) {
      if (item.kind === 'row') out.rows.push(item.row);
      else if (item.kind === 'rejected') out.rejections.push(item.rejection);
      else out.skipped.push(item.reason);
    }
  }
  return out;
}

interface Page {
  _embedded: { enheter: Array<Record<string, unknown>> };
}

/** Real Enhet objects from the recorded responses, as the bulk file's array holds them. */
export function realEnheter(): Array<Record<string, unknown>> {
  return [
    fixtureJson<Record<string, unknown>>('registers/no/brreg-enhet-by-orgnr-docs-example-sesam-stasjon.json'),
    fixtureJson<Record<string, unknown>>('registers/no/brreg-enhet-by-orgnr-deleted-slettedato.json'),
    ...fixtureJson<Page>('registers/no/brreg-enheter-search-navn-sesam-page1.json')._embedded.enheter,
    ...fixtureJson<Page>('registers/no/brreg-enheter-search-organisasjonsform-asa-size5.json')._embedded.enheter,
  ];
}

interface SearchAnswer {
  hits: { hits: Array<Record<string, unknown>> };
}

const DK_FILES = [
  'registers/dk/cvr-es-virksomhed-by-cvr-25052943-magenta-aps.json',
  'registers/dk/cvr-es-virksomhed-search-4-hits-assure-cvr-v-20220630.json',
  'registers/dk/cvr-es-virksomhed-by-cvr-41774037-tietgen-invest.json',
  'registers/dk/cvr-es-virksomhed-search-cvr-11617034-fls-fond-aktiv.json',
];

/** The real recorded hits, one per line, as a scroll over cvr-permanent/virksomhed dumps them. */
export function realVirksomhedLines(): string[] {
  return DK_FILES.flatMap((f) => fixtureJson<SearchAnswer>(f).hits.hits.map((hit) => JSON.stringify(hit)));
}

/**
 * The recorded <corporation> elements wrapped into the root the real OPEN_DATA_n.xml files
 * have (`<cc:corpcan reportId="OPEN_DATA" date="…"><corporations>`); the date is the test's.
 */
export function openDataFile(corporations: string[], date = '2024-09-10T05:00:00'): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<cc:corpcan xmlns:cc="http://www.ic.gc.ca/corpcan" reportId="OPEN_DATA" date="${date}">`,
    '<corporations>',
    ...corporations,
    '</corporations>',
    '</cc:corpcan>',
  ].join('\n');
}
