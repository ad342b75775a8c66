import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { CompanyRecord, RecordSource } from '../../../registers/connector';
import type { CountryCode } from '../../../registers/registers';
import { DetectionEventWriter, EmittedEvent } from '../events/detection-event-writer';
import { changeEventData, CompanyRef, noChangeEventData, Provenance, SourceMode } from '../events/detection-events';
import { CompanySnapshotEntity } from './company-snapshot.entity';
import {
  CHANGE_EVENT_KIND,
  comparisonKeys,
  diffSnapshot,
  FieldChange,
  WatchedValues,
  watchedValues,
} from './company-diff';

export type CheckOutcome = 'baseline' | 'changed' | 'no_change' | 'stale' | 'not_found' | 'failed' | 'feed_behind';

/** The source mode of a read, or null when it may not be used (a dataset row is never a read). */
export function sourceModeOf(source: RecordSource): SourceMode | null {
  if (source.kind === 'native_official' || source.kind === 'native_official_website')
    return source.official ? 'live' : null;
  if (source.kind.startsWith('public_mirror:')) return 'mirror';
  return null;
}

function valuesOf(s: CompanySnapshotEntity): { values: WatchedValues; keys: WatchedValues } {
  return {
    values: { name: s.name, status: s.status, address: s.address, legal_form: s.legalForm },
    keys: { name: s.nameKey, status: s.statusKey, address: s.addressKey, legal_form: s.legalFormKey },
  };
}

export function companyRef(s: CompanySnapshotEntity, name = s.name): CompanyRef {
  return {
    entityId: s.entityId,
    country: s.country.trim() as CountryCode,
    registrationNumber: s.registrationNumber,
    companyName: name,
  };
}

/**
 * Applies one read of a company to its snapshot, in the caller's transaction with the row
 * locked: the first official read is the baseline (no event); later reads are diffed, each
 * changed field giving one event per watching account. A read older than what the snapshot
 * holds (a slow re-read overtaken by a feed entry) changes nothing.
 */
@Injectable()
export class ChangeApplier {
  constructor(private readonly sink: DetectionEventWriter) {}

  async apply(
    m: EntityManager,
    snapshot: CompanySnapshotEntity,
    record: CompanyRecord,
    options: { scheduled: boolean; now: Date },
  ): Promise<{ outcome: CheckOutcome; changes: FieldChange[]; emitted: EmittedEvent[] }> {
    const mode = sourceModeOf(record.source);
    if (!mode) throw new Error(`detection refuses a ${record.source.kind} record as a read of ${snapshot.entityId}`);
    const retrievedAt = new Date(record.source.retrievedAt);
    if (snapshot.retrievedAt && retrievedAt < snapshot.retrievedAt)
      return { outcome: 'stale', changes: [], emitted: [] };
    const provenance: Provenance = {
      source_mode: mode,
      source_url: record.source.url,
      retrieved_at: record.source.retrievedAt,
    };
    const fresh = watchedValues(record);

    if (!snapshot.baselineAt) {
      await this.store(m, snapshot, fresh, provenance, retrievedAt, 'baseline', null, options.now, true);
      await m.query(
        `UPDATE watch SET baseline_at = $2, baseline_source_mode = $3, baseline_source_url = $4 WHERE entity_id = $1 AND baseline_at IS NULL`,
        [snapshot.entityId, retrievedAt, mode, record.source.url],
      );
      return { outcome: 'baseline', changes: [], emitted: [] };
    }

    const changes = diffSnapshot(valuesOf(snapshot), fresh);
    const watches: Array<{ account_id: string; notify_no_change: boolean }> = await m.query(
      `SELECT account_id, notify_no_change FROM watch WHERE entity_id = $1 AND baseline_at IS NOT NULL ORDER BY created_at, id`,
      [snapshot.entityId],
    );
    const ref = companyRef(snapshot, record.name);
    const emitted: EmittedEvent[] = [];
    for (const change of changes) {
      const data = changeEventData(ref, change, record.source.retrievedAt, provenance);
      for (const w of watches)
        emitted.push(await this.sink.emit(m, { accountId: w.account_id, kind: CHANGE_EVENT_KIND[change.field], data }));
    }
    if (changes.length === 0 && options.scheduled) {
      const data = noChangeEventData(ref, options.now.toISOString(), provenance);
      for (const w of watches)
        if (w.notify_no_change)
          emitted.push(await this.sink.emit(m, { accountId: w.account_id, kind: 'company.no_change', data }));
    }
    const outcome: CheckOutcome = changes.length ? 'changed' : 'no_change';
    const detail = changes.length ? `changed: ${changes.map((c) => c.field).join(', ')}` : null;
    await this.store(m, snapshot, fresh, provenance, retrievedAt, outcome, detail, options.now, false);
    return { outcome, changes, emitted };
  }

  /** A scheduled check that found nothing without reading: the feed was read past this company's due time. */
  async confirmFromFeed(
    m: EntityManager,
    snapshot: CompanySnapshotEntity,
    provenance: Provenance,
    now: Date,
  ): Promise<EmittedEvent[]> {
    const watches: Array<{ account_id: string }> = await m.query(
      `SELECT account_id FROM watch WHERE entity_id = $1 AND baseline_at IS NOT NULL AND notify_no_change ORDER BY created_at, id`,
      [snapshot.entityId],
    );
    const data = noChangeEventData(companyRef(snapshot), now.toISOString(), provenance);
    const emitted: EmittedEvent[] = [];
    for (const w of watches)
      emitted.push(await this.sink.emit(m, { accountId: w.account_id, kind: 'company.no_change', data }));
    await m.query(
      `UPDATE company_snapshot SET checked_at = $2, check_outcome = 'no_change', check_detail = $3 WHERE entity_id = $1`,
      [snapshot.entityId, now, `no entry in the register's change feed up to ${provenance.retrieved_at}`],
    );
    return emitted;
  }

  private async store(
    m: EntityManager,
    s: CompanySnapshotEntity,
    fresh: WatchedValues,
    provenance: Provenance,
    retrievedAt: Date,
    outcome: CheckOutcome,
    detail: string | null,
    now: Date,
    isBaseline: boolean,
  ): Promise<void> {
    // A field the register did not publish in this read keeps its last known value.
    const values: WatchedValues = {
      name: fresh.name ?? s.name,
      status: fresh.status ?? s.status,
      address: fresh.address ?? s.address,
      legal_form: fresh.legal_form ?? s.legalForm,
    };
    const keys = comparisonKeys(values);
    await m.query(
      `UPDATE company_snapshot SET name = $2, status = $3, address = $4, legal_form = $5,
         name_key = $6, status_key = $7, address_key = $8, legal_form_key = $9,
         source_mode = $10, source_url = $11, retrieved_at = $12,
         baseline_at = CASE WHEN $13 THEN $12 ELSE baseline_at END,
         checked_at = $14, check_outcome = $15, check_detail = $16
       WHERE entity_id = $1`,
      [
        s.entityId,
        values.name,
        values.status,
        values.address,
        values.legal_form,
        keys.name,
        keys.status,
        keys.address,
        keys.legal_form,
        provenance.source_mode,
        provenance.source_url,
        retrievedAt,
        isBaseline,
        now,
        outcome,
        detail,
      ],
    );
  }
}
