import type { DataSource } from 'typeorm';
import { addCounts, CompanyRow, CompanyWriter, textArrayLiteral, upsertSql, WRITE_COLUMNS, WriteCounts } from './company-writer';

const CASTS = ['char(2)', 'text', 'text[]', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'date', 'text', 'text', 'text', 'timestamptz', 'jsonb'];

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

/**
 * Writer for the embedded database (PGlite has no COPY FROM STDIN over this driver):
 * batched multi-row INSERT … ON CONFLICT DO UPDATE through the DataSource, one statement
 * per batch. Keys repeated within a batch are collapsed first (the last occurrence wins), as
 * ON CONFLICT may not meet the same key twice in one statement.
 */
export class BatchInsertWriter implements CompanyWriter {
  private batch = new Map<string, CompanyRow>();
  private readonly totals: WriteCounts = { inserted: 0, updated: 0, unchanged: 0 };

  constructor(
    private readonly dataSource: DataSource,
    // 16 parameters a row: 1,000 rows stay far below Postgres's 65,535 bind parameters.
    private readonly batchSize = 1_000,
  ) {}

  write(row: CompanyRow): Promise<void> | void {
    const key = `${row.country}|${row.registrationNumber}`;
    // Re-inserting moves a repeated key to the end, so the last occurrence is what is written.
    this.batch.delete(key);
    this.batch.set(key, row);
    if (this.batch.size >= this.batchSize) return this.flush();
  }

  async finish(): Promise<WriteCounts> {
    await this.flush();
    return { ...this.totals };
  }

  async abort(): Promise<void> {
    this.batch.clear();
  }

  private async flush(): Promise<void> {
    if (this.batch.size === 0) return;
    const rows = [...this.batch.values()];
    this.batch = new Map();
    const { source, values } = valuesSource(rows);
    const result = (await this.dataSource.query(upsertSql(source), values)) as Array<{ submitted: number; inserted: number; written: number }>;
    addCounts(this.totals, result[0]);
  }
}
