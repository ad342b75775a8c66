import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { CompanyRecord, Officer, RecordSource } from '../../../registers/connector';
import type { CountryCode } from '../../../registers/registers';
import { DetectionMetrics } from '../detection-metrics';
import { DetectionEventWriter, EmittedEvent } from '../events/detection-event-writer';
import {
  changeEventData,
  CompanyRef,
  noChangeEventData,
  officersChangedEventData,
  Provenance,
  SourceMode,
} from '../events/detection-events';
import { diffOfficers } from './officer-diff';
import { WatchStore } from '../watches/watch-store';
import { CompanySnapshotEntity } from './company-snapshot.entity';
import {
  CHANGE_EVENT_KIND,
  comparisonKeys,
  diffSnapshot,
  FieldChange,
  WatchedValues,
  watchedValues,
} from './company-diff';
import { SnapshotStore } from './snapshot-store';

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
 * changed field giving one event per watching account. A read that carries the officer list
 * (detection reads it where officers are watched) is compared with the list the snapshot holds,
 * each officer appointed, resigned or changed giving one company.officers_changed per watching
 * account; the first list read is the officers' baseline. A read older than what the snapshot
 * holds (a slow re-read overtaken by a feed entry) changes nothing.
 */
@Injectable()
export class ChangeApplier {
  constructor(
    private readonly snapshots: SnapshotStore,
    private readonly watches: WatchStore,
    private readonly sink: DetectionEventWriter,
    private readonly metrics: DetectionMetrics,
  ) {}

  async apply(
    m: EntityManager,
    snapshot: CompanySnapshotEntity,
    record: CompanyRecord,
    options: { scheduled: boolean; now: Date; officers?: Officer[] | null },
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

    const officers = options.officers ?? null;
    if (!snapshot.baselineAt) {
      await this.store(m, snapshot, fresh, provenance, retrievedAt, 'baseline', null, options.now, true);
      if (officers) await this.snapshots.recordOfficers(m, snapshot.entityId, officers);
      await this.watches.setBaseline(m, snapshot.entityId, {
        at: retrievedAt,
        sourceMode: mode,
        sourceUrl: record.source.url,
      });
      return { outcome: 'baseline', changes: [], emitted: [] };
    }

    const changes = diffSnapshot(valuesOf(snapshot), fresh);
    const watches = await this.watches.watchersOf(m, snapshot.entityId);
    const ref = companyRef(snapshot, record.name);
    const emitted: EmittedEvent[] = [];
    for (const change of changes) {
      const data = changeEventData(ref, change, record.source.retrievedAt, provenance);
      for (const w of watches)
        emitted.push(await this.sink.emit(m, { accountId: w.accountId, kind: CHANGE_EVENT_KIND[change.field], data }));
    }
    const officerChanges = officers && snapshot.officers ? diffOfficers(snapshot.officers, officers) : [];
    for (const change of officerChanges) {
      const data = officersChangedEventData(ref, change, record.source.retrievedAt, provenance);
      for (const w of watches)
        emitted.push(await this.sink.emit(m, { accountId: w.accountId, kind: 'company.officers_changed', data }));
    }
    if (officers) await this.snapshots.recordOfficers(m, snapshot.entityId, officers);
    if (changes.length === 0 && officerChanges.length === 0 && options.scheduled) {
      const data = noChangeEventData(ref, options.now.toISOString(), provenance);
      for (const w of watches)
        if (w.notifyNoChange)
          emitted.push(await this.sink.emit(m, { accountId: w.accountId, kind: 'company.no_change', data }));
    }
    for (const change of changes) this.metrics.changed(snapshot.country, CHANGE_EVENT_KIND[change.field]);
    this.metrics.changed(snapshot.country, 'company.officers_changed', officerChanges.length);
    const fields = [...changes.map((c) => c.field), ...(officerChanges.length ? ['officers'] : [])];
    const outcome: CheckOutcome = fields.length ? 'changed' : 'no_change';
    const detail = fields.length ? `changed: ${fields.join(', ')}` : null;
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
    const accountIds = await this.watches.noChangeWatchersOf(m, snapshot.entityId);
    const data = noChangeEventData(companyRef(snapshot), now.toISOString(), provenance);
    const emitted: EmittedEvent[] = [];
    for (const accountId of accountIds)
      emitted.push(await this.sink.emit(m, { accountId, kind: 'company.no_change', data }));
    await this.snapshots.recordConfirmed(
      m,
      snapshot.entityId,
      `no entry in the register's change feed up to ${provenance.retrieved_at}`,
      now,
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
    await this.snapshots.recordRead(m, s.entityId, {
      values,
      keys: comparisonKeys(values),
      sourceMode: provenance.source_mode,
      sourceUrl: provenance.source_url,
      retrievedAt,
      isBaseline,
      outcome,
      detail,
      checkedAt: now,
    });
  }
}
