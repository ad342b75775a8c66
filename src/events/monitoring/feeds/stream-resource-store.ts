import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { queryRows } from '../../../platform/database/sql';

/** What a stream last sent of one resource of a company (an appointment, a filing). */
export interface StreamResource {
  fingerprint: string;
  /** What the service keeps of it (for an appointment: the officer). */
  body: unknown;
}

/**
 * The SQL of `stream_resource`: the resources (officer appointments, filings) a change stream
 * has sent for a watched company, by the register's own id, so that a resource sent again —
 * which Companies House does on every change of it — is told from a new one. Runs in the
 * caller's transaction, under the company's snapshot row lock.
 */
@Injectable()
export class StreamResourceStore {
  async find(
    m: EntityManager,
    entityId: string,
    kind: 'officer' | 'filing',
    resourceId: string,
  ): Promise<StreamResource | null> {
    const rows = await queryRows<{ fingerprint: string; body: unknown }>(
      m,
      `SELECT fingerprint, body FROM stream_resource WHERE entity_id = $1 AND kind = $2 AND resource_id = $3`,
      [entityId, kind, resourceId],
    );
    return rows[0] ?? null;
  }

  async upsert(
    m: EntityManager,
    r: { entityId: string; kind: 'officer' | 'filing'; resourceId: string; fingerprint: string; body: unknown },
    at: Date,
  ): Promise<void> {
    await m.query(
      `INSERT INTO stream_resource (entity_id, kind, resource_id, fingerprint, body, seen_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (entity_id, kind, resource_id) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, body = EXCLUDED.body, seen_at = EXCLUDED.seen_at`,
      [r.entityId, r.kind, r.resourceId, r.fingerprint, JSON.stringify(r.body), at],
    );
  }
}
