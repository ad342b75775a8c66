import { once } from 'node:events';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { DataSource, QueryRunner } from 'typeorm';
import type { CountryCode } from '../../registers/register-table';
import { BUNDLED_DATASET } from '../seed/bundled-sample';
import { addCounts, CompanyRow, CompanyWriter, copyTextLine, IMPORT_SESSION_SETTINGS, upsertSql, WRITE_COLUMNS, WriteCounts } from './company-writer';
import { CopyBlocks } from './copy-blocks';
import { searchIndexes } from './search-indexes';
import { WordTally } from '../word-tally';
import type { KnownWordCounts } from '../word-counts';

/** How far the file may be read ahead of Postgres: reading and COPY overlap, memory stays bounded. */
const COPY_AHEAD_BYTES = 4 * 1024 * 1024;
const ASIDE = 'company_bulk_aside';
const STAGING = 'company_bulk_staging';

/** True when the country holds no row but the bundled sample's: an import there can load in bulk. */
export async function isEmptyDataset(dataSource: DataSource, country: CountryCode): Promise<boolean> {
  const rows = (await dataSource.query(`SELECT EXISTS (SELECT 1 FROM company WHERE country = $1 AND dataset_name <> $2) AS taken`, [country, BUNDLED_DATASET])) as Array<{
    taken: boolean;
  }>;
  return !rows[0].taken;
}

/** One batch of rows on its way into the table: committed by its COPY, or else by the upsert. */
interface Batch {
  /**
   * Its rows as the bytes of COPY, kept until it commits: replayed through the upsert if it
   * fails. Bytes, not the line strings: those would keep alive the file's text they were cut from.
   */
  blocks: Buffer[];
  /** How many of `blocks` went to its COPY, and the bytes of the others. */
  sent: number;
  unsent: number;
  rows: number;
  copy?: ReturnType<typeof copyFrom>;
  copyDone?: Promise<void>;
  /** Its COPY failed on a key the table had: the batch goes through the upsert. */
  failed: boolean;
}

function newBatch(): Batch {
  return { blocks: [], sent: 0, unsent: 0, rows: 0, failed: false };
}

/**
 * The import of a register into an empty dataset on Postgres, at the speed of COPY: the
 * country's search indexes are dropped, rows stream by `COPY … FROM STDIN` straight into
 * `company` (committed every `batchSize` rows (50,000), so an interrupted import keeps what it wrote),
 * and the indexes are built again in one sort each, side by side, once the rows are in. The
 * bundled sample's rows of the country are set aside and put back where the file has no
 * company of their number. A key the table already has (a number repeated in the file) fails a
 * batch's COPY: that batch and the rest of the file then go through a staging table and the
 * upsert, as an import into a filled dataset does.
 */
export class PostgresBulkWriter implements CompanyWriter {
  private runner?: QueryRunner;
  private client?: PoolClient;
  private readonly buffered = new CopyBlocks();
  private current = newBatch();
  /**
   * The previous batch's commit (or upsert) while it runs. The file is read on meanwhile, up to
   * COPY_AHEAD_BYTES of the next batch: waiting for each commit with nothing to do cost a
   * tenth of the load's time on the GB file.
   */
  private settling?: Promise<void>;
  /** What made a batch's commit fail: thrown to the next `write` or `finish`. */
  private failure?: unknown;
  private upsertMode = false;
  private started = false;
  private readonly totals: WriteCounts = { inserted: 0, updated: 0, unchanged: 0 };
  /** The words of the rows COPY wrote, while it wrote them all (not once the upsert took over). */
  private readonly tally = new WordTally();
  private datasetName?: string;
  /** Rows of the sample put back that belong to the imported dataset (it was given the sample's name). */
  private putBackOfDataset = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly country: CountryCode,
    private readonly batchSize = 50_000,
  ) {}

  write(row: CompanyRow): Promise<void> | void {
    this.tally.add(row.nameNormalized);
    this.datasetName ??= row.datasetName;
    if (!this.started) return this.start().then(() => this.writeLine(copyTextLine(row)));
    return this.writeLine(copyTextLine(row));
  }

  /** The country's word counts and number of companies after `finish`, when they were kept. */
  wordCounts(): KnownWordCounts | null {
    return this.tally.result();
  }

  /**
   * The imported dataset's rows in the table after `finish`, known without a count (a scan of
   * the whole table, every country's rows) while every batch went in by COPY.
   */
  datasetRows(): number | null {
    return this.upsertMode ? null : this.totals.inserted + this.putBackOfDataset;
  }

  async finish(): Promise<WriteCounts> {
    if (!this.started) await this.start();
    await this.endBatch();
    await this.settling;
    if (this.failure) throw this.failure;
    const client = this.client!;
    // The sample's companies that the file did not have come back; the file's own win.
    const { rows } = await client.query<{ name_normalized: string; dataset_name: string }>(
      `INSERT INTO company (${WRITE_COLUMNS.join(', ')}) SELECT ${WRITE_COLUMNS.join(', ')} FROM ${ASIDE} ON CONFLICT (country, registration_number) DO NOTHING RETURNING name_normalized, dataset_name`,
    );
    for (const row of rows) {
      this.tally.add(row.name_normalized);
      if (row.dataset_name === this.datasetName) this.putBackOfDataset += 1;
    }
    await client.query(`DROP TABLE IF EXISTS ${ASIDE}; DROP TABLE IF EXISTS ${STAGING}`);
    await this.release();
    return { ...this.totals };
  }

  /** Builds the search indexes again, each on its own connection (both cores at work). */
  async afterLoad(): Promise<void> {
    await Promise.all(
      searchIndexes(this.country).map(async (index) => {
        const runner = this.dataSource.createQueryRunner();
        try {
          await runner.connect();
          await runner.query(`SET statement_timeout = 0`);
          await runner.query(`SET maintenance_work_mem = '256MB'`);
          await runner.query(index.create);
        } finally {
          await runner.release();
        }
      }),
    );
  }

  async abort(): Promise<void> {
    const { copy, copyDone } = this.current;
    if (copy) {
      copy.destroy(new Error('import aborted'));
      await copyDone?.catch(() => undefined);
    }
    await this.settling;
    if (this.client) {
      await this.client
        .query(`INSERT INTO company (${WRITE_COLUMNS.join(', ')}) SELECT ${WRITE_COLUMNS.join(', ')} FROM ${ASIDE} ON CONFLICT (country, registration_number) DO NOTHING`)
        .catch(() => undefined);
    }
    await this.release();
    // The country stays searchable with what was written.
    await this.afterLoad().catch(() => undefined);
  }

  private async start(): Promise<void> {
    this.started = true;
    this.runner = this.dataSource.createQueryRunner();
    this.client = (await this.runner.connect()) as PoolClient;
    await this.client.query(IMPORT_SESSION_SETTINGS);
    await this.client.query(`CREATE TEMPORARY TABLE ${ASIDE} AS SELECT * FROM company WHERE country = $1`, [this.country]);
    await this.client.query(`DELETE FROM company WHERE country = $1`, [this.country]);
    for (const index of searchIndexes(this.country)) await this.client.query(`DROP INDEX IF EXISTS ${index.name}`);
  }

  private writeLine(line: string): Promise<void> | void {
    const batch = this.current;
    batch.rows += 1;
    const full = this.buffered.add(line);
    const sending = full ? this.push(batch, full) : undefined;
    if (batch.rows < this.batchSize) return sending;
    return sending ? sending.then(() => this.endBatch()) : this.endBatch();
  }

  /** Adds a block to the batch, and sends it to COPY when the connection is the batch's. */
  private push(batch: Batch, block: Buffer): Promise<void> | void {
    batch.blocks.push(block);
    batch.unsent += block.length;
    return this.pump(batch);
  }

  private pump(batch: Batch): Promise<void> | void {
    if (this.failure) throw this.failure;
    if (this.upsertMode || batch.failed) return;
    if (this.settling) {
      // The previous batch still holds the connection: read on a little, then wait for it.
      if (batch.unsent < COPY_AHEAD_BYTES) return;
      return this.settling.then(() => this.pump(batch));
    }
    return this.send(batch);
  }

  /** Sends the batch's blocks not sent yet to its COPY (opened on the first), as fast as Postgres takes them. */
  private send(batch: Batch): Promise<void> | void {
    if (batch.failed) return;
    const copy = batch.copy ?? this.openCopy(batch);
    while (batch.sent < batch.blocks.length) {
      const block = batch.blocks[batch.sent++];
      batch.unsent -= block.length;
      if (!copy.write(block)) {
        return Promise.race([once(copy, 'drain'), batch.copyDone!]).then(
          () => this.send(batch),
          (err) => this.copyError(batch, err),
        );
      }
    }
  }

  private copyError(batch: Batch, err: unknown): void {
    if ((err as { code?: string }).code !== '23505') throw err;
    batch.failed = true;
  }

  private openCopy(batch: Batch): ReturnType<typeof copyFrom> {
    const copy = this.client!.query(copyFrom(`COPY company (${WRITE_COLUMNS.join(', ')}) FROM STDIN`, { highWaterMark: COPY_AHEAD_BYTES }));
    batch.copy = copy;
    batch.copyDone = new Promise((resolve, reject) => {
      copy.on('finish', resolve);
      copy.on('error', reject);
    });
    batch.copyDone.catch(() => undefined);
    return copy;
  }

  /**
   * Ends the current batch: it commits (or goes through the upsert) in the background while the
   * next one fills. Waits only for the batch before it, so that at most one is settling.
   */
  private endBatch(): Promise<void> | void {
    const batch = this.current;
    if (batch.rows === 0) return;
    this.current = newBatch();
    if (this.buffered.length > 0) {
      const rest = this.buffered.take();
      batch.blocks.push(rest);
      batch.unsent += rest.length;
    }
    const previous = this.settling;
    const settling: Promise<void> = this.settle(batch, previous).then(
      () => {
        if (this.settling === settling) this.settling = undefined;
      },
      (err: unknown) => {
        this.failure ??= err;
        if (this.settling === settling) this.settling = undefined;
      },
    );
    this.settling = settling;
    return previous;
  }

  /** Commits a batch by its COPY, or, once a COPY met a key the table had, by the upsert. */
  private async settle(batch: Batch, previous: Promise<void> | undefined): Promise<void> {
    await previous;
    if (this.failure) return;
    if (!this.upsertMode) {
      await this.send(batch);
      if (!batch.failed) {
        batch.copy!.end();
        try {
          await batch.copyDone;
          this.totals.inserted += batch.rows;
          return;
        } catch (err) {
          this.copyError(batch, err);
        }
      }
      this.upsertMode = true;
      this.tally.abandon();
    }
    await this.upsert(batch.blocks);
  }

  private async upsert(blocks: Buffer[]): Promise<void> {
    const client = this.client!;
    await client.query(`CREATE TEMPORARY TABLE IF NOT EXISTS ${STAGING} (seq bigserial, LIKE company INCLUDING DEFAULTS)`);
    await client.query(`TRUNCATE ${STAGING}`);
    const copy = client.query(copyFrom(`COPY ${STAGING} (${WRITE_COLUMNS.join(', ')}) FROM STDIN`));
    const done = new Promise<void>((resolve, reject) => {
      copy.on('finish', resolve);
      copy.on('error', reject);
    });
    for (const block of blocks) if (!copy.write(block)) await Promise.race([once(copy, 'drain'), done]);
    copy.end();
    await done;
    const source = `SELECT DISTINCT ON (country, registration_number) ${WRITE_COLUMNS.join(', ')} FROM ${STAGING} ORDER BY country, registration_number, seq DESC`;
    const { rows } = await client.query(upsertSql(source));
    addCounts(this.totals, rows[0]);
  }

  private async release(): Promise<void> {
    const runner = this.runner;
    this.runner = undefined;
    this.client = undefined;
    if (runner && !runner.isReleased) await runner.release();
  }
}
