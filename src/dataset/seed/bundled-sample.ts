import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { normalizeName } from '../normalize-name';
import BUNDLED from './bundled-sample.json';
import type { DatasetRow } from '../import/dataset-row';

export const BUNDLED_DATASET = 'bundled-sample';
/** When these rows were produced (from recordings of the registers; see bundled-sample.spec.ts). */
export const BUNDLED_PRODUCED_AT = '2026-11-22T00:00:00.000Z';

/**
 * Loads the bundled sample of real records (65 companies read from recorded register
 * responses) so that a fresh embedded install answers offline. Never overwrites a row: a
 * real import of the same company wins.
 */
export async function seedBundledSample(dataSource: DataSource): Promise<number> {
  const rows = BUNDLED as DatasetRow[];
  const values: unknown[] = [];
  const tuples = rows.map((r) => {
    const base = values.length;
    values.push(
      r.country,
      r.registrationNumber,
      `{${r.otherNumbers.map((n) => `"${n}"`).join(',')}}`,
      r.name,
      normalizeName(r.name),
      r.status,
      r.statusCategory,
      r.legalForm,
      r.address,
      r.city,
      r.incorporationDate,
      r.sourceUrl,
      `dataset:${BUNDLED_DATASET}`,
      BUNDLED_DATASET,
      BUNDLED_PRODUCED_AT,
      r.extra ? JSON.stringify(r.extra) : null,
    );
    const casts = ['', '', '::text[]', '', '', '', '', '', '', '', '::date', '', '', '', '::timestamptz', '::jsonb'];
    return `(${casts.map((cast, i) => `$${base + i + 1}${cast}`).join(', ')})`;
  });
  const inserted: unknown[] = await dataSource.query(
    `INSERT INTO company (country, registration_number, other_numbers, name, name_normalized, status, status_category, legal_form,
       address, city, incorporation_date, source_url, source_kind, dataset_name, produced_at, extra)
     VALUES ${tuples.join(', ')}
     ON CONFLICT (country, registration_number) DO NOTHING RETURNING 1`,
    values,
  );
  if (inserted.length) new Logger('Dataset').log(`loaded ${inserted.length} rows of the bundled sample dataset`);
  return inserted.length;
}
