import { CompanyRow, textArrayLiteral, WRITE_COLUMNS } from './company-writer';

const CASTS = [
  'char(2)',
  'text',
  'text[]',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'text',
  'date',
  'text',
  'text',
  'text',
  'timestamptz',
  'jsonb',
];

function params(r: CompanyRow): unknown[] {
  return [
    r.country,
    r.registrationNumber,
    textArrayLiteral(r.otherNumbers),
    r.name,
    r.nameNormalized,
    r.status,
    r.statusCategory,
    r.legalForm,
    r.address,
    r.city,
    r.incorporationDate,
    r.sourceUrl,
    r.sourceKind,
    r.datasetName,
    r.producedAt,
    r.extra ? JSON.stringify(r.extra) : null,
  ];
}

/** A SELECT of the WRITE_COLUMNS over bound VALUES, for one statement. */
export function valuesSource(rows: CompanyRow[]): { source: string; values: unknown[] } {
  const values: unknown[] = [];
  const tuples = rows.map((r) => {
    const base = values.length;
    values.push(...params(r));
    return `(${CASTS.map((cast, i) => `$${base + i + 1}::${cast}`).join(', ')})`;
  });
  return { source: `SELECT * FROM (VALUES ${tuples.join(',\n')}) AS v(${WRITE_COLUMNS.join(', ')})`, values };
}
