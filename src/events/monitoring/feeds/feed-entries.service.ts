import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { FeedEntry } from '../../../registers/change-detection';
import type { CompanyRecord } from '../../../registers/connector';
import type { CountryCode } from '../../../registers/registers';
import type { EmittedEvent } from '../events/detection-event-writer';
import { ChangeApplier } from '../snapshots/change-applier';
import { SnapshotStore } from '../snapshots/snapshot-store';
import { StreamEntryApplier } from '../snapshots/stream-entry-applier';

/**
 * What a page of feed entries does to the snapshots, in the transaction that also stores the
 * feed's cursor (so a restart re-applies a page or none of it, and a duplicate entry diffs
 * against a snapshot that already holds it: no duplicate event). Entries of companies nobody
 * watches are dropped here, for free. An entry with the whole record is applied; one without
 * marks the company for a re-read by the next check. An officer appointment or a filing a
 * stream sent is applied to the company's snapshot (stream-entry-applier.ts).
 */
@Injectable()
export class FeedEntriesService {
  constructor(
    private readonly snapshots: SnapshotStore,
    private readonly applier: ChangeApplier,
    private readonly streamed: StreamEntryApplier,
  ) {}

  async apply(
    m: EntityManager,
    country: CountryCode,
    entries: FeedEntry[],
    now: Date,
  ): Promise<{ applied: number; requested: number; emitted: EmittedEvent[] }> {
    const records = new Map<string, CompanyRecord>();
    const bare = new Set<string>();
    const resources: FeedEntry[] = [];
    for (const e of entries) {
      if (!e.registrationNumber) continue;
      if (e.officer || e.filing) resources.push(e);
      else if (e.record) records.set(e.registrationNumber, e.record);
      else bare.add(e.registrationNumber);
    }
    let requested = 0;
    if (bare.size) requested = await this.snapshots.requestReads(m, country, [...bare], now);
    let applied = 0;
    const emitted: EmittedEvent[] = [];
    if (records.size) {
      const snapshots = await this.snapshots.lockByNumbers(m, country, [...records.keys()]);
      for (const snapshot of snapshots) {
        emitted.push(
          ...(
            await this.applier.apply(m, snapshot, records.get(snapshot.registrationNumber)!, { scheduled: false, now })
          ).emitted,
        );
        applied++;
      }
    }
    for (const e of resources) {
      const [snapshot] = await this.snapshots.lockByNumbers(m, country, [e.registrationNumber]);
      if (!snapshot) continue;
      if (e.officer) emitted.push(...(await this.streamed.applyOfficer(m, snapshot, e.officer, now)));
      if (e.filing) emitted.push(...(await this.streamed.applyFiling(m, snapshot, e.filing, now)));
      applied++;
    }
    return { applied, requested, emitted };
  }
}
