import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../../platform/clock';
import { ApiError } from '../../../platform/errors/api-error';
import { randomId } from '../../../platform/ids';
import { Cursor, page, pageConditions, pageQuery } from '../../../platform/pagination';
import { parseQuery } from '../../../platform/validation/zod-input';
import { z } from 'zod';
import { returningRows } from '../../../platform/database/returning-rows';
import { COUNTRY_CODES, CountryCode, findRegister } from '../../../registers/registers';
import { CompanyCheckService } from '../checks/company-check.service';
import { WatchBulkResponseDto, WatchBulkResultDto, WatchDto, WatchListDto } from './dto/watch.dto';
import { BODY_ERROR, BULK_MAX_WATCHES, resolveWatchTarget, WatchTarget } from './watch-input';

/** A watch joined with its company's snapshot. */
interface WatchRow {
  id: string;
  entity_id: string;
  country: string;
  registration_number: string;
  notify_no_change: boolean;
  baseline_at: Date | null;
  baseline_source_mode: string | null;
  baseline_source_url: string | null;
  created_at: Date;
  name: string | null;
  checked_at: Date | null;
  check_outcome: string | null;
  check_detail: string | null;
  next_check_at: Date;
}

const SELECT_WATCH = `SELECT w.id, w.entity_id, w.country, w.registration_number, w.notify_no_change, w.baseline_at, w.baseline_source_mode,
  w.baseline_source_url, w.created_at, s.name, s.checked_at, s.check_outcome, s.check_detail, s.next_check_at
  FROM watch w JOIN company_snapshot s ON s.entity_id = w.entity_id`;

/** Rows written per statement in a bulk create. */
const BULK_CHUNK = 1_000;

/**
 * Watches of one account: create (one, or up to 10,000 at once), list, read, delete. A watch
 * points at its company's snapshot, created on first watch with a pending baseline; a single
 * create also tries the baseline read at once.
 */
@Injectable()
export class WatchService {
  private readonly logger = new Logger(WatchService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly checks: CompanyCheckService,
    private readonly clock: Clock,
  ) {}

  async create(accountId: string, body: unknown): Promise<{ created: boolean; watch: WatchDto }> {
    const target = resolveWatchTarget(body);
    const { created, ids } = await this.dataSource.transaction((m) => this.insert(m, accountId, [target]));
    const id = ids.get(target.entityId)!;
    if (created.has(target.entityId)) {
      try {
        await this.checks.takeBaselineNow(target.country, target.entityId);
      } catch (err) {
        // Stays pending: the worker takes the baseline at the first successful read.
        this.logger.warn(`baseline of ${target.entityId} not taken at creation: ${(err as Error).message}`);
      }
    }
    return { created: created.has(target.entityId), watch: await this.get(accountId, id) };
  }

  async createMany(accountId: string, body: unknown): Promise<WatchBulkResponseDto> {
    const rows = (body as { watches?: unknown } | null)?.watches;
    if (
      !body ||
      typeof body !== 'object' ||
      Array.isArray(body) ||
      !Array.isArray(rows) ||
      Object.keys(body).some((k) => k !== 'watches')
    ) {
      throw new ApiError(
        BODY_ERROR,
        'The body must be {"watches": [{country, registrationNumber, notifyNoChange?}, …]}.',
        {
          errors: [{ field: 'watches', code: 'invalid_type', message: 'expected an array of watches' }],
        },
      );
    }
    if (rows.length === 0 || rows.length > BULK_MAX_WATCHES) {
      throw new ApiError(BODY_ERROR, `watches must hold 1 to ${BULK_MAX_WATCHES} rows (got ${rows.length}).`, {
        errors: [{ field: 'watches', code: 'out_of_range', message: `1 to ${BULK_MAX_WATCHES} rows` }],
      });
    }
    const results: WatchBulkResultDto[] = new Array(rows.length);
    const valid: Array<{ index: number; target: WatchTarget }> = [];
    rows.forEach((row, index) => {
      try {
        valid.push({ index, target: resolveWatchTarget(row, `watches[${index}].`) });
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        results[index] = {
          index,
          status: 'failed',
          error: { status: err.status, code: err.code, message: err.detail },
        };
      }
    });
    for (let i = 0; i < valid.length; i += BULK_CHUNK) {
      const chunk = valid.slice(i, i + BULK_CHUNK);
      const { created, ids } = await this.dataSource.transaction((m) =>
        this.insert(
          m,
          accountId,
          chunk.map((v) => v.target),
        ),
      );
      const seen = new Set<string>();
      for (const { index, target } of chunk) {
        // The same company twice in one request: the second row is the existing watch.
        const isNew = created.has(target.entityId) && !seen.has(target.entityId);
        seen.add(target.entityId);
        results[index] = {
          index,
          status: isNew ? 'created' : 'existing',
          id: ids.get(target.entityId),
          entityId: target.entityId,
        };
      }
    }
    const count = (s: string) => results.filter((r) => r.status === s).length;
    return { created: count('created'), existing: count('existing'), failed: count('failed'), results };
  }

  async list(accountId: string, query: unknown): Promise<WatchListDto> {
    const q = parseQuery(listQuery, query);
    const country = q.country === undefined ? null : parseCountry(q.country);
    const params: unknown[] = [accountId];
    let where = 'w.account_id = $1';
    if (country) where += ` AND w.country = $${params.push(country)}`;
    const conditions = pageConditions(q, params.length + 1, 'w');
    params.push(...conditions.params);
    const rows: WatchRow[] = await this.dataSource.query(
      `${SELECT_WATCH} WHERE ${where}${conditions.sql} ORDER BY w.created_at DESC, w.id DESC LIMIT $${params.push(q.limit + 1)}`,
      params,
    );
    const result = page(rows, q.limit, (r): Cursor => ({ createdAt: r.created_at, id: r.id }));
    return { data: result.rows.map(toDto), nextCursor: result.nextCursor };
  }

  async get(accountId: string, id: string): Promise<WatchDto> {
    const rows: WatchRow[] = await this.dataSource.query(`${SELECT_WATCH} WHERE w.account_id = $1 AND w.id = $2`, [
      accountId,
      id,
    ]);
    if (!rows[0]) throw watchNotFound(id);
    return toDto(rows[0]);
  }

  async remove(accountId: string, id: string): Promise<void> {
    const deleted = returningRows(
      await this.dataSource.query(`DELETE FROM watch WHERE account_id = $1 AND id = $2 RETURNING id`, [accountId, id]),
    );
    if (deleted.length === 0) throw watchNotFound(id);
  }

  /**
   * Creates the snapshots that do not exist yet (baseline pending, due now) and the watches
   * the account does not have yet. Returns which companies got a new watch, and each watch id.
   */
  private async insert(
    m: EntityManager,
    accountId: string,
    targets: WatchTarget[],
  ): Promise<{ created: Set<string>; ids: Map<string, string> }> {
    const now = this.clock.now();
    const unique = [...new Map(targets.map((t) => [t.entityId, t])).values()];
    await m.query(
      `INSERT INTO company_snapshot (entity_id, country, registration_number, next_check_at, created_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $4::timestamptz[])
       ON CONFLICT (entity_id) DO NOTHING`,
      [
        unique.map((t) => t.entityId),
        unique.map((t) => t.country),
        unique.map((t) => t.registrationNumber),
        unique.map(() => now),
      ],
    );
    const inserted: Array<{ entity_id: string }> = await m.query(
      `INSERT INTO watch (id, account_id, entity_id, country, registration_number, notify_no_change, created_at,
         baseline_at, baseline_source_mode, baseline_source_url)
       SELECT n.id, $1, n.entity_id, n.country, n.registration_number, n.notify, $2,
         CASE WHEN s.baseline_at IS NULL THEN NULL ELSE s.retrieved_at END, s.source_mode, s.source_url
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::boolean[]) AS n(id, entity_id, country, registration_number, notify)
       JOIN company_snapshot s ON s.entity_id = n.entity_id
       ON CONFLICT (account_id, entity_id) DO NOTHING RETURNING entity_id`,
      [
        accountId,
        now,
        unique.map(() => newWatchId()),
        unique.map((t) => t.entityId),
        unique.map((t) => t.country),
        unique.map((t) => t.registrationNumber),
        unique.map((t) => t.notifyNoChange),
      ],
    );
    const ids: Array<{ id: string; entity_id: string }> = await m.query(
      `SELECT id, entity_id FROM watch WHERE account_id = $1 AND entity_id = ANY($2::text[])`,
      [accountId, unique.map((t) => t.entityId)],
    );
    return { created: new Set(inserted.map((r) => r.entity_id)), ids: new Map(ids.map((r) => [r.entity_id, r.id])) };
  }
}

function newWatchId(): string {
  return randomId('wch');
}

/** GET /watches: the shared page parameters, and a country. */
const listQuery = z.object({ ...pageQuery, country: z.string().max(8).optional() }).strict();

function toDto(r: WatchRow): WatchDto {
  const country = r.country.trim() as CountryCode;
  const register = findRegister(country)!;
  return {
    id: r.id,
    entityId: r.entity_id,
    country,
    registrationNumber: r.registration_number,
    companyName: r.name,
    register: { name: register.name, officialUrl: register.officialUrl },
    notifyNoChange: r.notify_no_change,
    baseline: {
      state: r.baseline_at ? 'taken' : 'pending',
      readAt: r.baseline_at?.toISOString() ?? null,
      sourceMode: r.baseline_source_mode,
      sourceUrl: r.baseline_source_url,
    },
    lastCheck: { at: r.checked_at?.toISOString() ?? null, outcome: r.check_outcome, detail: r.check_detail },
    nextCheckAt: r.next_check_at.toISOString(),
    createdAt: r.created_at.toISOString(),
  };
}

function watchNotFound(id: string): ApiError {
  return new ApiError('resource_not_found', `No watch ${JSON.stringify(id.slice(0, 40))} in this account.`);
}

function parseCountry(raw: unknown): CountryCode {
  const register = typeof raw === 'string' && /^[A-Za-z]{2}$/.test(raw) ? findRegister(raw) : undefined;
  if (!register) throw new ApiError('country_not_covered', `country must be one of ${COUNTRY_CODES.join(', ')}.`);
  return register.country;
}
