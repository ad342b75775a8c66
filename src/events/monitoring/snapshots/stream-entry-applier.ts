import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { StreamedFiling, StreamedOfficer } from '../../../registers/change-detection';
import type { Officer } from '../../../registers/connector';
import { DetectionMetrics } from '../detection-metrics';
import { DetectionEventWriter, EmittedEvent } from '../events/detection-event-writer';
import { filingPublishedEventData, officersChangedEventData, Provenance } from '../events/detection-events';
import { StreamResourceStore } from '../feeds/stream-resource-store';
import { WatchStore } from '../watches/watch-store';
import { companyRef } from './change-applier';
import { CompanySnapshotEntity } from './company-snapshot.entity';
import { classifyStreamedOfficer, officerKey, withOfficer } from './officer-diff';
import { SnapshotStore } from './snapshot-store';

/**
 * Applies what an officers or filings stream sent about a watched company, in the caller's
 * transaction with the snapshot row locked. A resource sent again with nothing changed gives
 * nothing (the register's id and a digest of it are kept in stream_resource). A company whose
 * baseline is pending has not been read live: nothing is said of it (its baseline will list
 * its officers as they are then).
 */
@Injectable()
export class StreamEntryApplier {
  constructor(
    private readonly snapshots: SnapshotStore,
    private readonly resources: StreamResourceStore,
    private readonly watches: WatchStore,
    private readonly sink: DetectionEventWriter,
    private readonly metrics: DetectionMetrics,
  ) {}

  async applyOfficer(
    m: EntityManager,
    snapshot: CompanySnapshotEntity,
    streamed: StreamedOfficer,
    now: Date,
  ): Promise<EmittedEvent[]> {
    if (!snapshot.baselineAt) return [];
    const seen = await this.resources.find(m, snapshot.entityId, 'officer', streamed.resourceId);
    if (seen?.fingerprint === streamed.fingerprint) return [];
    const officer = streamed.officer;
    const known = (seen?.body as Officer | undefined) ?? listed(snapshot.officers, officer);
    const action = classifyStreamedOfficer(known, officer);
    await this.resources.upsert(
      m,
      {
        entityId: snapshot.entityId,
        kind: 'officer',
        resourceId: streamed.resourceId,
        fingerprint: streamed.fingerprint,
        body: officer,
      },
      now,
    );
    const list = withOfficer(snapshot.officers ?? [], officer, known);
    await this.snapshots.recordOfficers(m, snapshot.entityId, list);
    snapshot.officers = list;
    const provenance: Provenance = { source_mode: 'live', source_url: streamed.url, retrieved_at: now.toISOString() };
    const data = officersChangedEventData(
      companyRef(snapshot),
      { action, officer, previous: known },
      now.toISOString(),
      provenance,
    );
    this.metrics.changed(snapshot.country, 'company.officers_changed');
    return this.emitToWatchers(m, snapshot.entityId, 'company.officers_changed', data);
  }

  async applyFiling(
    m: EntityManager,
    snapshot: CompanySnapshotEntity,
    filing: StreamedFiling,
    now: Date,
  ): Promise<EmittedEvent[]> {
    if (!snapshot.baselineAt) return [];
    const seen = await this.resources.find(m, snapshot.entityId, 'filing', filing.resourceId);
    await this.resources.upsert(
      m,
      {
        entityId: snapshot.entityId,
        kind: 'filing',
        resourceId: filing.resourceId,
        fingerprint: filing.fingerprint,
        body: {},
      },
      now,
    );
    // Sent again: seen before, or (an old filing we never saw) annotated or with its document now available.
    if (seen || filing.resentBecause) return [];
    const provenance: Provenance = {
      source_mode: 'live',
      source_url: filing.historyUrl,
      retrieved_at: now.toISOString(),
    };
    const data = filingPublishedEventData(companyRef(snapshot), filing, now.toISOString(), provenance);
    this.metrics.changed(snapshot.country, 'company.filing_published');
    return this.emitToWatchers(m, snapshot.entityId, 'company.filing_published', data);
  }

  private async emitToWatchers(
    m: EntityManager,
    entityId: string,
    kind: 'company.officers_changed' | 'company.filing_published',
    data: Record<string, unknown>,
  ): Promise<EmittedEvent[]> {
    const emitted: EmittedEvent[] = [];
    for (const w of await this.watches.watchersOf(m, entityId))
      emitted.push(await this.sink.emit(m, { accountId: w.accountId, kind, data }));
    return emitted;
  }
}

/** The officer of the snapshot's list this appointment is (same person and role, same or unknown appointment date). */
function listed(list: Officer[] | null, officer: Officer): Officer | null {
  return (
    list?.find(
      (o) =>
        officerKey(o) === officerKey(officer) &&
        (o.appointedOn === officer.appointedOn || !o.appointedOn || !officer.appointedOn),
    ) ?? null
  );
}
