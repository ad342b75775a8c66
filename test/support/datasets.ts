import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DataSource } from 'typeorm';
import { importDataset, ImportSummary } from '../../src/dataset/import/dataset-importer';
import { type CountryCode, REGISTERS } from '../../src/registers/registers';
import { fixtureText, openDataFile, realEnheter, realVirksomhedLines } from './dataset-fixtures';
import type { TestApp } from './test-app';
import { makeZip } from './zip';

export const SAMPLE_PRODUCED_AT = '2026-11-01T00:00:00.000Z';

/** Each country's bulk-file sample, in the register's published format, built from real records. */
function sampleFile(country: CountryCode): { name: string; content: string | Buffer; format?: string } {
  switch (country) {
    case 'NO':
      return { name: 'enheter.json.gz', content: gzipSync(JSON.stringify(realEnheter())) };
    case 'GB':
      return { name: 'BasicCompanyData.csv', content: fixtureText('registers/gb/ch-bulk-basiccompanydata-sample.csv') };
    case 'FR':
      return {
        name: 'StockUniteLegale.csv',
        content: fixtureText('datasets/fr/stockunitelegale-constructed-from-docs-sample.csv'),
      };
    case 'DK':
      return { name: 'virksomhed.ndjson', content: `${realVirksomhedLines().join('\n')}\n` };
    case 'AU':
      return {
        name: 'asic.tsv',
        content: fixtureText('datasets/au/asic-company-dataset-constructed-from-docs-sample.tsv'),
        format: 'asic-csv',
      };
    case 'CA':
      return {
        name: 'OPEN_DATA_1.xml',
        content: openDataFile([
          fixtureText('registers/ca/corpcan-opendata-corporation-1007-abbotsford-chamber-bota.xml'),
          fixtureText('registers/ca/corpcan-opendata-corporation-16292721-numbered-cbca-2024.xml'),
        ]),
      };
    case 'CZ':
      throw new Error(`no CZ sample: ${REGISTERS.CZ.noBulkFile}`);
    case 'FI':
      return {
        name: 'all_companies.zip',
        content: makeZip([
          { name: 'data_20261101.json', data: fixtureText('datasets/fi/prh-ytj-v3-all-companies-derived-sample.json') },
        ]),
      };
    default:
      throw new Error(`${country} publishes no bulk file: there is no sample to import`);
  }
}

/** Imports the country's sample through the real import pipeline into the app's database. */
export async function importSample(app: TestApp, country: CountryCode): Promise<ImportSummary> {
  const dir = mkdtempSync(join(tmpdir(), 'rl-sample-'));
  try {
    const sample = sampleFile(country);
    const file = join(dir, sample.name);
    writeFileSync(file, sample.content);
    return await importDataset({
      dataSource: app.get(DataSource),
      config: app.config,
      registers: app.registers,
      country,
      file,
      format: sample.format,
      datasetName: `${country.toLowerCase()}-sample`,
      producedAt: new Date(SAMPLE_PRODUCED_AT),
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
