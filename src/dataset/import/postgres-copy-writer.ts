import { once } from 'node:events';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { DataSource, QueryRunner } from 'typeorm';
import type { CountryCode } from '../../registers/registers';
import {
  addCounts,
  CompanyRow,
  CompanyWriter,
  copyTextLine,
  IMPORT_SESSION_SETTINGS,
  upsertSql,
  WRITE_COLUMNS,
  WriteCounts,
} from './company-writer';
import { CopyBlocks } from './copy-blocks';

const STAGING = 'company_import_staging';

/** A row's COPY line behind its sequence number in the file (the staging table's first column). */
export function copyLine(r: CompanyRow, seq: number): string {
  return `${seq}\t${copyTextLine(r)}`;
}

/** One connection with its own staging table (temporary tables belong to their session). */
class Lane {
  runner?: QueryRunner;
  client?: PoolClient;
  copy?: ReturnType<typeof copyFrom>;
  copyDone?: Promise<void>;
  /** The upsert of the batch last staged on this lane, while it runs. */
  upsert?: Promise<void>;
}

/**
 * Postgres writer. Rows stream through `COPY … FROM STDIN` into a session-local staging
 * table; every `batchSize` rows one INSERT … SELECT … ON CONFLICT DO UPDATE moves the batch
 * into `company` (the last occurrence of a key within the batch wins) and empties the staging
 * table. Two connections take turns, so that the file is read and copied into one staging
 * table while the other batch is upserted: reading and the database work at the same time,
 * and at most one batch waits in Postgres (never in this process). Upserts run one after
 * another, in file order. The COPY stream's own backpressure paces `write`.
 */
export class PostgresCopyWriter implements CompanyWriter {
  private readonly lanes = [new Lane(), new Lane()];
  private current = 0;
  private inBatch = 0;
  private readonly buffered = new CopyBlocks();
  private seq = 0;
  private readonly totals: WriteCounts = { inserted: 0, updated: 0, unchanged: 0 };
  private readonly countries = new Set<string>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly country: CountryCode,
    private readonly batchSize = 50_000,
  ) {}

  write(row: CompanyRow): Promise<void> | void {
    const lane = this.lanes[this.current];
    if (!lane.copy) return this.startCopy(lane).then(() => this.writeLine(lane, row));
    return this.writeLine(lane, row);
  }

  async finish(): Promise<WriteCounts> {
    try {
      const lane = this.lanes[this.current];
      if (lane.copy) await this.rotate();
      for (const l of this.lanes) await l.upsert;
      for (const l of this.lanes) if (l.client) await l.client.query(`DROP TABLE IF EXISTS ${STAGING}`);
      await this.flushGinPendingLists();
    } finally {
      await this.release();
    }
    return { ...this.totals };
  }

  async abort(): Promise<void> {
    for (const lane of this.lanes) {
      if (lane.copy) {
        lane.copy.destroy(new Error('import aborted'));
        await lane.copyDone?.catch(() => undefined);
        lane.copy = undefined;
      }
      await lane.upsert?.catch(() => undefined);
    }
    await this.release();
  }

  /**
   * Moves what the import left in the GIN pending lists into the indexes now, in one bulk merge,
   * rather than leaving it to searches (which scan the list) and autovacuum. Needs to own the
   * index; without that right the work is simply left to autovacuum.
   */
  private async flushGinPendingLists(): Promise<void> {
    const client = this.lanes.find((l) => l.client)?.client;
    if (!client) return;
    for (const cc of this.countries) {
      for (const index of [`company_words_${cc.toLowerCase()}`, `company_${cc.toLowerCase()}_other_numbers`]) {
        await client.query(`SELECT gin_clean_pending_list($1::regclass)`, [index]).catch(() => undefined);
      }
    }
  }

  private writeLine(lane: Lane, row: CompanyRow): Promise<void> | void {
    this.countries.add(row.country);
    this.seq += 1;
    this.inBatch += 1;
    // Lines go to COPY in blocks: one CopyData message per row would cost more than the row.
    const full = this.buffered.add(copyLine(row, this.seq));
    const ready = full ? lane.copy!.write(full) : true;
    if (this.inBatch >= this.batchSize) return this.rotate();
    if (!ready) return Promise.race([once(lane.copy!, 'drain'), lane.copyDone!]).then(() => undefined);
  }

  /** Ends the current lane's COPY, starts its upsert once the other lane's is done, and switches lanes. */
  private async rotate(): Promise<void> {
    const lane = this.lanes[this.current];
    const other = this.lanes[1 - this.current];
    const copy = lane.copy!;
    lane.copy = undefined;
    copy.end(this.buffered.take());
    await lane.copyDone;
    await other.upsert;
    lane.upsert = this.upsert(lane);
    lane.upsert.catch(() => undefined); // awaited (and thrown) at the next rotation or at finish
    this.current = 1 - this.current;
    this.inBatch = 0;
  }

  private async upsert(lane: Lane): Promise<void> {
    const client = lane.client!;
    const source = `SELECT DISTINCT ON (country, registration_number) ${WRITE_COLUMNS.join(', ')} FROM ${STAGING} ORDER BY country, registration_number, seq DESC`;
    const { rows } = await client.query(upsertSql(source, this.country));
    addCounts(this.totals, rows[0]);
    await client.query(`TRUNCATE ${STAGING}`);
  }

  private async startCopy(lane: Lane): Promise<void> {
    await lane.upsert;
    const client = await this.connect(lane);
    const copy = client.query(copyFrom(`COPY ${STAGING} (seq, ${WRITE_COLUMNS.join(', ')}) FROM STDIN`));
    lane.copy = copy;
    lane.copyDone = new Promise((resolve, reject) => {
      copy.on('finish', resolve);
      copy.on('error', reject);
    });
    lane.copyDone.catch(() => undefined);
  }

  private async connect(lane: Lane): Promise<PoolClient> {
    if (lane.client) return lane.client;
    lane.runner = this.dataSource.createQueryRunner();
    lane.client = (await lane.runner.connect()) as PoolClient;
    // The import session's settings (the staging table is local to it), and a larger GIN pending
    // list: the trigram index takes new names in bigger, cheaper merges (flushed at the end, below).
    await lane.client.query(`${IMPORT_SESSION_SETTINGS}; SET gin_pending_list_limit = '64MB'`);
    await lane.client.query(`
      CREATE TEMPORARY TABLE IF NOT EXISTS ${STAGING} (
        seq bigint NOT NULL,
        country char(2) NOT NULL,
        registration_number text NOT NULL,
        other_numbers text[] NOT NULL,
        name text NOT NULL,
        name_normalized text NOT NULL,
        status text,
        status_category text NOT NULL,
        legal_form text,
        address text,
        city text,
        incorporation_date date,
        source_url text NOT NULL,
        source_kind text NOT NULL,
        dataset_name text NOT NULL,
        produced_at timestamptz NOT NULL,
        extra jsonb
      )`);
    return lane.client;
  }

  private async release(): Promise<void> {
    for (const lane of this.lanes) {
      const runner = lane.runner;
      lane.runner = undefined;
      lane.client = undefined;
      if (runner && !runner.isReleased) await runner.release();
    }
  }
}
