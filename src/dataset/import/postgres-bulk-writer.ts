import { once } from 'node:events';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { DataSource, QueryRunner } from 'typeorm';
import type { CountryCode } from '../../registers/registers';
import { BUNDLED_DATASET } from '../seed/bundled-sample';
import {
  CompanyRow,
  CompanyWriter,
  copyTextLine,
  IMPORT_SESSION_SETTINGS,
  PROVENANCE_COLUMNS,
  ROW_COLUMNS,
  WRITE_COLUMNS,
  WriteCounts,
} from './company-writer';
import { CopyBlocks } from './copy-blocks';
import { companyPartition, PartitionIndex, partitionIndexes } from './search-indexes';
import { WordTally } from '../word-tally';
import { addWordCounts, refreshWordCounts } from '../word-counts';

/** How far the file may be read ahead of Postgres: reading and COPY overlap, memory stays bounded. */
const COPY_AHEAD_BYTES = 4 * 1024 * 1024;
/** Connections building the loaded table's indexes side by side. */
const INDEX_BUILDERS = 2;
/** How long the swap waits for the lock on `company` before it lets the queries queued behind it go, and tries again. */
const SWAP_LOCK_TIMEOUT = '1s';
const SWAP_ATTEMPTS = 120;
const LOCK_NOT_AVAILABLE = '55P03';

/** True when the country holds no row but the bundled sample's: an import there can load in bulk. */
export async function isEmptyDataset(dataSource: DataSource, country: CountryCode): Promise<boolean> {
  const rows = (await dataSource.query(
    `SELECT EXISTS (SELECT 1 FROM company WHERE country = $1 AND dataset_name <> $2) AS taken`,
    [country, BUNDLED_DATASET],
  )) as Array<{
    taken: boolean;
  }>;
  return !rows[0].taken;
}

/** Another import is loading the same country in bulk. */
export class BulkLoadBusyError extends Error {}

/**
 * The import of a register into an empty dataset on Postgres, at the speed of COPY. The rows
 * stream by one `COPY … FROM STDIN WITH (FREEZE)` into a table of their own (`company_gb_load`),
 * created in the same transaction, bare: no index, so no row pays for one, and every row is
 * written frozen and visible to all. Once they are in, its indexes — those of a partition of
 * `company` — are built in one sort each, two at a time; then, in one short transaction, the
 * bundled sample's companies that the file lacks are put back into it, the country's partition
 * is detached and dropped, and the loaded table is attached in its place under its name.
 *
 * The country's searches go on against the sample until that transaction; the other countries
 * are not touched. A number repeated in the file makes the unique index fail: the earlier
 * occurrences are deleted (the last one wins, as in an upsert) and the index built again. An
 * import that fails or is killed leaves the country as it was: the loaded table is rolled back
 * with its transaction or dropped (a killed import's, by Postgres while it loads, by the next
 * bulk import of the country after). Rows written frozen are visible to a snapshot older than
 * their load, as after a TRUNCATE: only once the swap has committed, and only to a repeatable
 * read transaction that had not read `company` before it.
 */
export class PostgresBulkWriter implements CompanyWriter {
  private runner?: QueryRunner;
  private client?: PoolClient;
  private readonly buffered = new CopyBlocks();
  private copy?: ReturnType<typeof copyFrom>;
  private copyDone?: Promise<void>;
  private rows = 0;
  /** Rows deleted because the same number came again later in the file. */
  private superseded = 0;
  /** The words of the rows COPY wrote (abandoned when repeated numbers were deleted). */
  private readonly tally = new WordTally();
  /** What every row of the load says of where it came from: the load table's defaults while it loads, not repeated in each COPY line. */
  private provenance?: Pick<CompanyRow, 'sourceKind' | 'datasetName' | 'producedAt'>;
  /** Rows of the sample put back that belong to the imported dataset (it was given the sample's name). */
  private putBackOfDataset = 0;
  private readonly partition: string;
  private readonly load: string;
  private readonly lockKey: string;
  private swapped = false;
  /** The transaction that creates and loads the table is open. */
  private loading = false;
  /** The file's word counts were (or are being) written before the swap. */
  private wordsCounted = false;
  /** `finish` writes the word counts itself: the file's beside the index builds, the sample's put-back in the swap. */
  readonly refreshesWordCounts = true;

  constructor(
    private readonly dataSource: DataSource,
    private readonly country: CountryCode,
  ) {
    this.partition = companyPartition(country);
    this.load = `${this.partition}_load`;
    this.lockKey = `company bulk load ${country}`;
  }

  write(row: CompanyRow): Promise<void> | void {
    this.tally.add(row.nameNormalized);
    if (!this.copy) return this.start(row).then(() => this.writeLine(this.line(row)));
    return this.writeLine(this.line(row));
  }

  /** The row's COPY line, without the provenance the table gives it. */
  private line(row: CompanyRow): string {
    const p = this.provenance!;
    if (row.sourceKind !== p.sourceKind || row.datasetName !== p.datasetName || row.producedAt !== p.producedAt) {
      throw new Error(
        `a bulk load's rows come from one import: ${row.sourceKind} ${row.producedAt} after ${p.sourceKind} ${p.producedAt}`,
      );
    }
    return copyTextLine(row, false);
  }

  /** The imported dataset's rows in the table after `finish`: known without a count. */
  datasetRows(): number {
    return this.rows - this.superseded + this.putBackOfDataset;
  }

  async finish(): Promise<WriteCounts> {
    if (!this.copy) await this.start();
    this.copy!.end(this.buffered.take());
    await this.copyDone;
    // The partition's columns have no defaults: nor has the table that takes its place.
    await this.client!.query(
      `ALTER TABLE ${this.load} ${PROVENANCE_COLUMNS.map((c) => `ALTER COLUMN ${c} DROP DEFAULT`).join(', ')}`,
    );
    await this.client!.query('COMMIT');
    this.loading = false;
    // The file's word counts go in while the indexes are built: searches meanwhile may be
    // steered by them while they still read the sample (a second or two; results stay right).
    const counts = this.tally.result();
    this.wordsCounted = counts !== null;
    await Promise.all([this.buildIndexes(), counts && refreshWordCounts(this.dataSource, this.country, counts)]);
    await this.swap();
    // Repeated numbers were deleted after the file's words were counted: count the table's.
    if (!this.tally.result()) await refreshWordCounts(this.dataSource, this.country);
    await this.release();
    return { inserted: this.rows - this.superseded, updated: 0, unchanged: 0 };
  }

  async abort(): Promise<void> {
    if (this.copy) {
      this.copy.destroy(new Error('import aborted'));
      await this.copyDone?.catch(() => undefined);
    }
    // Within the load's transaction, its rollback takes the table with it.
    if (this.client && this.loading) await this.client.query('ROLLBACK').catch(() => undefined);
    if (this.client && !this.swapped)
      await this.client.query(`DROP TABLE IF EXISTS ${this.load}`).catch(() => undefined);
    await this.release();
    // The file's word counts may be in already: the country's rows are what they were.
    if (this.wordsCounted) await refreshWordCounts(this.dataSource, this.country).catch(() => undefined);
  }

  /** Opens the load; `first`, the first row, gives the provenance of all (none when the file has no row). */
  private async start(first?: CompanyRow): Promise<void> {
    this.runner = this.dataSource.createQueryRunner();
    this.client = (await this.runner.connect()) as PoolClient;
    await this.client.query(IMPORT_SESSION_SETTINGS);
    const { rows } = await this.client.query<{ locked: boolean }>(
      `SELECT pg_try_advisory_lock(hashtext($1)) AS locked`,
      [this.lockKey],
    );
    if (!rows[0].locked) {
      await this.release(false);
      throw new BulkLoadBusyError(
        `another import is loading ${this.country} into its empty dataset: run this one once it is done`,
      );
    }
    // The table is created in the transaction that loads it, so COPY FREEZE writes its rows
    // frozen and its pages all-visible: no vacuum has to visit them after the import, no search
    // sets their hint bits, and the index-only reads of the rank index read no page of it.
    await this.client.query('BEGIN');
    this.loading = true;
    // A killed import's table, if any: nobody else loads this country (the lock above).
    await this.client.query(`DROP TABLE IF EXISTS ${this.load}`);
    await this.client.query(
      `CREATE TABLE ${this.load} (LIKE company INCLUDING DEFAULTS INCLUDING GENERATED, CONSTRAINT ${this.load}_country CHECK (country = '${this.country}'))`,
    );
    if (first) {
      // A fifth of a GB line's bytes, and a timestamp Postgres parsed for every row.
      const p = (this.provenance = {
        sourceKind: first.sourceKind,
        datasetName: first.datasetName,
        producedAt: first.producedAt,
      });
      const literal = (value: string) => this.client!.escapeLiteral(value);
      await this.client.query(
        `ALTER TABLE ${this.load} ALTER COLUMN source_kind SET DEFAULT ${literal(p.sourceKind)}, ALTER COLUMN dataset_name SET DEFAULT ${literal(p.datasetName)}, ` +
          `ALTER COLUMN produced_at SET DEFAULT ${literal(p.producedAt)}::timestamptz`,
      );
    }
    const copy = this.client.query(
      copyFrom(`COPY ${this.load} (${ROW_COLUMNS.join(', ')}) FROM STDIN WITH (FREEZE)`, {
        highWaterMark: COPY_AHEAD_BYTES,
      }),
    );
    this.copy = copy;
    this.copyDone = new Promise((resolve, reject) => {
      copy.on('finish', resolve);
      copy.on('error', reject);
    });
    this.copyDone.catch(() => undefined);
  }

  private writeLine(line: string): Promise<void> | void {
    this.rows += 1;
    const full = this.buffered.add(line);
    if (full && !this.copy!.write(full))
      return Promise.race([once(this.copy!, 'drain'), this.copyDone!]).then(() => undefined);
  }

  /**
   * The partition's indexes on the loaded table, the largest first, on INDEX_BUILDERS
   * connections. When the unique number index meets a repeated number, the earlier rows of
   * that number go and it is built again.
   */
  private async buildIndexes(): Promise<void> {
    const indexes = partitionIndexes(this.country, this.load);
    const queue = [...indexes];
    let unique: PartitionIndex | undefined;
    await Promise.all(
      Array.from({ length: INDEX_BUILDERS }, () =>
        this.onOwnConnection(async (runner) => {
          for (let index = queue.shift(); index; index = queue.shift()) {
            try {
              await runner.query(index.create);
            } catch (err) {
              if ((err as { code?: string }).code !== '23505' || index.constraint !== 'UNIQUE') throw err;
              unique = index;
            }
          }
        }),
      ),
    );
    const client = this.client!;
    if (unique) {
      const deleted = await client.query(
        `DELETE FROM ${this.load} a USING ${this.load} b WHERE a.registration_number = b.registration_number AND a.id < b.id`,
      );
      this.superseded = deleted.rowCount ?? 0;
      this.tally.abandon();
      const again = unique;
      await this.onOwnConnection((runner) => runner.query(again.create));
    }
    for (const index of indexes) {
      if (index.constraint)
        await client.query(
          `ALTER TABLE ${this.load} ADD CONSTRAINT ${index.name} ${index.constraint} USING INDEX ${index.name}`,
        );
    }
  }

  /**
   * In one transaction: the sample's companies that the file did not have come back (the
   * file's own win), the country's partition goes, and the loaded table takes its place and
   * its names. The lock on `company` holds every query of it for as long (milliseconds).
   */
  private async swap(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.swapOnce();
      } catch (err) {
        if ((err as { code?: string }).code !== LOCK_NOT_AVAILABLE || attempt >= SWAP_ATTEMPTS) throw err;
        await new Promise((resolve) => setTimeout(resolve, Math.min(attempt, 5) * 200));
      }
    }
  }

  private async swapOnce(): Promise<void> {
    const client = this.client!;
    const columns = WRITE_COLUMNS.join(', ');
    await client.query('BEGIN');
    try {
      // A query of `company` that runs long (another country's recount) must not hold every
      // search queued behind this lock: it is waited for at most SWAP_LOCK_TIMEOUT, then again.
      await client.query(`SET LOCAL lock_timeout = '${SWAP_LOCK_TIMEOUT}'`);
      await client.query(`LOCK TABLE company IN ACCESS EXCLUSIVE MODE`);
      const { rows } = await client.query<{ name_normalized: string; dataset_name: string }>(
        `INSERT INTO ${this.load} (${columns}) SELECT ${columns} FROM ${this.partition}
         ON CONFLICT (registration_number) DO NOTHING RETURNING name_normalized, dataset_name`,
      );
      await client.query(`ALTER TABLE company DETACH PARTITION ${this.partition}`);
      await client.query(`DROP TABLE ${this.partition}`);
      await client.query(`ALTER TABLE company ATTACH PARTITION ${this.load} FOR VALUES IN ('${this.country}')`);
      await client.query(`ALTER TABLE ${this.load} DROP CONSTRAINT ${this.load}_country`);
      await client.query(`ALTER TABLE ${this.load} RENAME TO ${this.partition}`);
      for (const index of partitionIndexes(this.country, this.load))
        await client.query(`ALTER INDEX ${index.name} RENAME TO ${index.partitionName}`);
      // The sample's companies put back count too.
      if (this.tally.result())
        await addWordCounts(
          (sql, params) => client.query(sql, params),
          this.country,
          rows.map((r) => r.name_normalized),
        );
      await client.query('COMMIT');
      this.swapped = true;
      this.putBackOfDataset = rows.filter((r) => r.dataset_name === this.provenance?.datasetName).length;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }

  private async onOwnConnection(work: (runner: QueryRunner) => Promise<void>): Promise<void> {
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.connect();
      // No parallel workers of its own: the builders already keep both cores busy.
      await runner.query(
        `SET statement_timeout = 0; SET maintenance_work_mem = '256MB'; SET max_parallel_maintenance_workers = 0`,
      );
      await work(runner);
    } finally {
      await runner.release();
    }
  }

  private async release(locked = true): Promise<void> {
    const runner = this.runner;
    const client = this.client;
    this.runner = undefined;
    this.client = undefined;
    if (locked && client)
      await client.query(`SELECT pg_advisory_unlock(hashtext($1))`, [this.lockKey]).catch(() => undefined);
    if (runner && !runner.isReleased) await runner.release();
  }
}
