import { once } from 'node:events';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { DataSource, QueryRunner } from 'typeorm';
import type { CountryCode } from '../../registers/register-table';
import { BUNDLED_DATASET } from '../seed/bundled-sample';
import { addCounts, CompanyRow, CompanyWriter, copyTextLine, upsertSql, WRITE_COLUMNS, WriteCounts } from './company-writer';
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
  private copy?: ReturnType<typeof copyFrom>;
  private copyDone?: Promise<void>;
  private readonly buffered = new CopyBlocks();
  /**
   * The current batch as the bytes sent to COPY, kept until it commits: replayed through the
   * upsert if it fails. Bytes, not the line strings: those would keep alive the file's text
   * they were cut from.
   */
  private blocks: Buffer[] = [];
  private inBatch = 0;
  private upsertMode = false;
  /** The current batch's COPY failed on a key the table had: the batch goes through the upsert. */
  private copyFailed = false;
  private started = false;
  private readonly totals: WriteCounts = { inserted: 0, updated: 0, unchanged: 0 };
  /** The words of the rows COPY wrote, while it wrote them all (not once the upsert took over). */
  private readonly tally = new WordTally();

  constructor(
    private readonly dataSource: DataSource,
    private readonly country: CountryCode,
    private readonly batchSize = 50_000,
  ) {}

  write(row: CompanyRow): Promise<void> | void {
    this.tally.add(row.nameNormalized);
    if (!this.started) return this.start().then(() => this.writeLine(copyTextLine(row)));
    return this.writeLine(copyTextLine(row));
  }

  /** The country's word counts and number of companies after `finish`, when they were kept. */
  wordCounts(): KnownWordCounts | null {
    return this.tally.result();
  }

  async finish(): Promise<WriteCounts> {
    if (!this.started) await this.start();
    await this.commitBatch();
    const client = this.client!;
    // The sample's companies that the file did not have come back; the file's own win.
    const { rows } = await client.query<{ name_normalized: string }>(
      `INSERT INTO company (${WRITE_COLUMNS.join(', ')}) SELECT ${WRITE_COLUMNS.join(', ')} FROM ${ASIDE} ON CONFLICT (country, registration_number) DO NOTHING RETURNING name_normalized`,
    );
    for (const row of rows) this.tally.add(row.name_normalized);
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
    if (this.copy) {
      this.copy.destroy(new Error('import aborted'));
      await this.copyDone?.catch(() => undefined);
      this.copy = undefined;
    }
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
    await this.client.query(`SET statement_timeout = 0`);
    await this.client.query(`SET work_mem = '64MB'`);
    // A batch's commit need not wait for its WAL to reach the disk: a crash loses at most the
    // last batches, and the import, then recorded as interrupted, is run again anyway.
    await this.client.query(`SET synchronous_commit = off`);
    await this.client.query(`CREATE TEMPORARY TABLE ${ASIDE} AS SELECT * FROM company WHERE country = $1`, [this.country]);
    await this.client.query(`DELETE FROM company WHERE country = $1`, [this.country]);
    for (const index of searchIndexes(this.country)) await this.client.query(`DROP INDEX IF EXISTS ${index.name}`);
  }

  private writeLine(line: string): Promise<void> | void {
    this.inBatch += 1;
    const full = this.buffered.add(line);
    if (this.inBatch >= this.batchSize) return full ? this.sendThenCommit(full) : this.commitBatch();
    if (full) return this.sendBlock(full);
  }

  private async sendThenCommit(block: Buffer): Promise<void> {
    await this.sendBlock(block);
    await this.commitBatch();
  }

  /** Adds a block to the batch's bytes, and sends it to COPY unless the batch already failed. */
  private sendBlock(block: Buffer): Promise<void> | void {
    if (!this.copy && !this.upsertMode && !this.copyFailed) return this.openCopy().then(() => this.sendBlock(block));
    this.blocks.push(block);
    if (this.upsertMode || this.copyFailed) return;
    const copy = this.copy!;
    if (!copy.write(block)) return Promise.race([once(copy, 'drain'), this.copyDone!]).then(() => undefined, (err) => this.copyError(err));
  }

  private copyError(err: unknown): void {
    if ((err as { code?: string }).code !== '23505') throw err;
    this.copyFailed = true;
  }

  private async openCopy(): Promise<void> {
    const copy = this.client!.query(copyFrom(`COPY company (${WRITE_COLUMNS.join(', ')}) FROM STDIN`, { highWaterMark: COPY_AHEAD_BYTES }));
    this.copy = copy;
    this.copyDone = new Promise((resolve, reject) => {
      copy.on('finish', resolve);
      copy.on('error', reject);
    });
    this.copyDone.catch(() => undefined);
  }

  /** Ends the batch: its COPY commits, or, if the table had one of its keys, the upsert takes it. */
  private async commitBatch(): Promise<void> {
    const count = this.inBatch;
    this.inBatch = 0;
    if (count === 0) return;
    if (this.buffered.length > 0) await this.sendBlock(this.buffered.take());
    const blocks = this.blocks;
    this.blocks = [];
    if (!this.upsertMode) {
      if (!this.copy) await this.openCopy();
      const copy = this.copy!;
      this.copy = undefined;
      if (!this.copyFailed) copy.end();
      try {
        await this.copyDone;
        if (!this.copyFailed) {
          this.totals.inserted += count;
          return;
        }
      } catch (err) {
        this.copyError(err);
      }
      this.upsertMode = true;
      this.tally.abandon();
    }
    await this.upsert(blocks);
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
