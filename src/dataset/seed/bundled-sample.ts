import { DeferredLogger } from '../../platform/logging/deferred-logger';
import type { DataSource } from 'typeorm';
import { normalizeName } from '../normalize-name';
import BUNDLED from './bundled-sample.json';
import { valuesSource } from '../import/values-source';
import { CompanyRow, WRITE_COLUMNS } from '../import/company-writer';
import type { DatasetRow } from '../../registers/bulk/dataset-row';
import type { CountryCode } from '../../registers/registers';
import { refreshWordCounts } from '../word-counts';

export const BUNDLED_DATASET = 'bundled-sample';
/** When these rows were produced (from recordings of the registers; see bundled-sample.spec.ts). */
export const BUNDLED_PRODUCED_AT = '2026-11-22T00:00:00.000Z';

/**
 * Loads the bundled sample of real records (69 companies read from recorded register
 * responses) so that a fresh embedded install answers offline. Never overwrites a row: a
 * real import of the same company wins.
 */
export async function seedBundledSample(dataSource: DataSource): Promise<number> {
  const rows: CompanyRow[] = (BUNDLED as DatasetRow[]).map((r) => ({
    ...r,
    nameNormalized: normalizeName(r.name),
    sourceKind: `dataset:${BUNDLED_DATASET}`,
    datasetName: BUNDLED_DATASET,
    producedAt: BUNDLED_PRODUCED_AT,
  }));
  const { source, values } = valuesSource(rows);
  const cols = WRITE_COLUMNS.join(', ');
  // No conflict target: each country's partition has its own unique number (none on the parent).
  const inserted: unknown[] = await dataSource.query(
    `INSERT INTO company (${cols}) SELECT ${cols} FROM (${source}) s ON CONFLICT DO NOTHING RETURNING 1`,
    values,
  );
  if (inserted.length) {
    for (const cc of new Set(rows.map((r) => r.country))) await refreshWordCounts(dataSource, cc as CountryCode);
    new DeferredLogger('Dataset').log(`loaded ${inserted.length} rows of the bundled sample dataset`);
  }
  return inserted.length;
}
