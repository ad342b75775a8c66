import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../../platform/clock';
import { AppConfig } from '../../../platform/config/app-config';
import { ApiError } from '../../../platform/errors/api-error';
import { AccountGate } from '../../accounts/account-gate.service';
import { isIdOf, randomId } from '../../../platform/ids';
import { Cursor, page, pageQuery } from '../../../platform/pagination';
import { windowInOrder } from '../../../platform/validation/text-input';
import { parseQuery } from '../../../platform/validation/zod-input';
import { z } from 'zod';
import { COUNTRY_CODES, CountryCode, findRegister } from '../../../registers/registers';
import { CompanyCheckService } from '../checks/company-check.service';
import { SnapshotStore } from '../snapshots/snapshot-store';
import { WatchBulkResponseDto, WatchBulkResultDto, WatchDto, WatchListDto } from './dto/watch.dto';
import { BODY_ERROR, BULK_MAX_WATCHES, resolveWatchTarget, WatchTarget } from './watch-input';
import { WatchStore, WatchView } from './watch-store';

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
    private readonly watches: WatchStore,
    private readonly snapshots: SnapshotStore,
    private readonly checks: CompanyCheckService,
    private readonly accounts: AccountGate,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async create(accountId: string, body: unknown): Promise<{ created: boolean; watch: WatchDto }> {
    const target = resolveWatchTarget(body);
    const { created, ids, refused } = await this.dataSource.transaction((m) => this.insert(m, accountId, [target]));
    if (refused.error) throw refused.error;
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
      const { created, ids, refused } = await this.dataSource.transaction((m) =>
        this.insert(
          m,
          accountId,
          chunk.map((v) => v.target),
        ),
      );
      const seen = new Set<string>();
      for (const { index, target } of chunk) {
        if (refused.entityIds.has(target.entityId)) {
          const err = refused.error!;
          results[index] = {
            index,
            status: 'failed',
            error: { status: err.status, code: err.code, message: err.detail },
          };
          continue;
        }
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

  /** How many companies of a register the account watches (what its register.unavailable says). */
  watchedIn(accountId: string, country: CountryCode): Promise<number> {
    return this.watches.countInCountry(accountId, country);
  }

  async list(accountId: string, query: unknown): Promise<WatchListDto> {
    const q = parseQuery(listQuery, query);
    const country = q.country === undefined ? null : parseCountry(q.country);
    const rows = await this.watches.list(accountId, { country: country ?? undefined }, q);
    const result = page(rows, q.limit, (r): Cursor => ({ createdAt: r.createdAt, id: r.id }));
    return { data: result.rows.map(toDto), nextCursor: result.nextCursor };
  }

  async get(accountId: string, id: string): Promise<WatchDto> {
    // Not one of our ids (a NUL byte, say): no watch, and no query Postgres would refuse.
    if (!isIdOf('wch', id)) throw watchNotFound(id);
    const watch = await this.watches.find(accountId, id);
    if (!watch) throw watchNotFound(id);
    return toDto(watch);
  }

  async remove(accountId: string, id: string): Promise<void> {
    if (!isIdOf('wch', id)) throw watchNotFound(id);
    if (!(await this.watches.delete(accountId, id))) throw watchNotFound(id);
  }

  /**
   * Creates the snapshots that do not exist yet (baseline pending, due now) and the watches
   * the account does not have yet. Returns which companies got a new watch, and each watch id.
   */
  private async insert(
    m: EntityManager,
    accountId: string,
    targets: WatchTarget[],
  ): Promise<{ created: Set<string>; ids: Map<string, string>; refused: Refused }> {
    const now = this.clock.now();
    const all = [...new Map(targets.map((t) => [t.entityId, t])).values()];
    const { unique, refused } = await this.withinQuota(m, accountId, all);
    await this.snapshots.insertPending(m, unique, now);
    const created = await this.watches.insertMissing(
      m,
      accountId,
      unique.map((t) => ({ ...t, id: newWatchId() })),
      now,
    );
    const ids = await this.watches.idsByEntity(
      m,
      accountId,
      unique.map((t) => t.entityId),
    );
    return { created: new Set(created), ids, refused };
  }

  /**
   * The targets that fit in the account's watch quota (companies it watches already always do),
   * and the error of those that do not. The account's row lock makes the count exact when
   * creations race, on any number of replicas.
   */
  private async withinQuota(
    m: EntityManager,
    accountId: string,
    targets: WatchTarget[],
  ): Promise<{ unique: WatchTarget[]; refused: Refused }> {
    const limit = this.config.limits.watchesPerAccount;
    await this.accounts.lock(m, accountId);
    const used = await this.watches.countByAccount(m, accountId);
    const existing = await this.watches.idsByEntity(
      m,
      accountId,
      targets.map((t) => t.entityId),
    );
    let room = Math.max(0, limit - used);
    const unique: WatchTarget[] = [];
    const refusedIds = new Set<string>();
    for (const t of targets) {
      if (existing.has(t.entityId) || room-- > 0) unique.push(t);
      else refusedIds.add(t.entityId);
    }
    if (refusedIds.size === 0) return { unique, refused: { entityIds: refusedIds } };
    const error = new ApiError(
      'watch_quota_exceeded',
      `This account watches ${used.toLocaleString('en-US')} companies, its quota (WATCHES_PER_ACCOUNT ${limit.toLocaleString('en-US')}): delete watches it no longer needs, or ask for a higher quota.`,
      { limit, used },
    );
    return { unique, refused: { entityIds: refusedIds, error } };
  }
}

/** New watches past the quota: their companies, and the error each gets. */
interface Refused {
  entityIds: Set<string>;
  error?: ApiError;
}

function newWatchId(): string {
  return randomId('wch');
}

/** GET /watches: the shared page parameters, and a country. */
const listQuery = z
  .object({ ...pageQuery, country: z.string().max(8).optional() })
  .strict()
  .superRefine(windowInOrder);

function toDto(w: WatchView): WatchDto {
  const country = w.country.trim() as CountryCode;
  const register = findRegister(country)!;
  return {
    id: w.id,
    entityId: w.entityId,
    country,
    registrationNumber: w.registrationNumber,
    companyName: w.companyName,
    register: { name: register.name, officialUrl: register.officialUrl },
    notifyNoChange: w.notifyNoChange,
    baseline: {
      state: w.baselineAt ? 'taken' : 'pending',
      readAt: w.baselineAt?.toISOString() ?? null,
      sourceMode: w.baselineSourceMode,
      sourceUrl: w.baselineSourceUrl,
    },
    lastCheck: { at: w.checkedAt?.toISOString() ?? null, outcome: w.checkOutcome, detail: w.checkDetail },
    nextCheckAt: w.nextCheckAt.toISOString(),
    createdAt: w.createdAt.toISOString(),
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
