import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { queryRows } from '../platform/database/sql';
import { ProbeEntity } from './probe.entity';

/** What a probe found, once it finished. */
export type ProbeResult = Pick<
  ProbeEntity,
  'finishedAt' | 'ok' | 'latencyMs' | 'httpStatus' | 'errorClass' | 'errorMessage'
>;

/** The uptime windows of the status report. */
export type UptimeWindow = '24h' | '7d' | '30d' | '90d';

/** Finished probes and successful ones of a register in each uptime window. */
export interface UptimeCounts {
  country: string;
  probes: Record<UptimeWindow, number>;
  ok: Record<UptimeWindow, number>;
}

/** Finished probes and successful ones of a register on one UTC day (YYYY-MM-DD). */
export interface DailyCounts {
  country: string;
  day: string;
  probes: number;
  ok: number;
}

/** A register's last finished probe. */
export interface LastProbe {
  country: string;
  slotStart: Date;
  finishedAt: Date;
  ok: boolean;
  latencyMs: number;
  httpStatus: number | null;
  errorClass: string | null;
}

interface WindowRow {
  country: string;
  probes_24h: number;
  ok_24h: number;
  probes_7d: number;
  ok_7d: number;
  probes_30d: number;
  ok_30d: number;
  probes_90d: number;
  ok_90d: number;
}

interface LastProbeRow {
  country: string;
  slot_start: Date;
  finished_at: Date;
  ok: boolean;
  latency_ms: number;
  http_status: number | null;
  error_class: string | null;
}

/**
 * The SQL of `probe`, whose rows are ProbeEntity: claiming a slot, recording the result, and
 * the counts the status report is made of (finished probes only: one whose worker died counts
 * in no window).
 */
@Injectable()
export class ProbeStore {
  constructor(private readonly dataSource: DataSource) {}

  /** Claims the register's slot: the new probe's id, or null when another worker took it. */
  async claimSlot(country: string, slotStart: Date, startedAt: Date): Promise<number | null> {
    const rows = await queryRows<{ id: number }>(
      this.dataSource,
      `INSERT INTO probe (country, slot_start, started_at) VALUES ($1, $2, $3)
       ON CONFLICT ON CONSTRAINT probe_one_per_slot DO NOTHING RETURNING id`,
      [country, slotStart, startedAt],
    );
    return rows.length ? rows[0].id : null;
  }

  async finish(id: number, result: ProbeResult): Promise<void> {
    await this.dataSource.getRepository(ProbeEntity).update(id, result);
  }

  /** Per register, finished probes with their slot in (the window's start, upTo], for each window. */
  async uptimeCounts(since: Record<UptimeWindow, Date>, upTo: Date): Promise<UptimeCounts[]> {
    const rows = await queryRows<WindowRow>(
      this.dataSource,
      `SELECT country,
         count(*) FILTER (WHERE slot_start > $1)::int AS probes_24h, count(*) FILTER (WHERE slot_start > $1 AND ok)::int AS ok_24h,
         count(*) FILTER (WHERE slot_start > $2)::int AS probes_7d,  count(*) FILTER (WHERE slot_start > $2 AND ok)::int AS ok_7d,
         count(*) FILTER (WHERE slot_start > $3)::int AS probes_30d, count(*) FILTER (WHERE slot_start > $3 AND ok)::int AS ok_30d,
         count(*)::int AS probes_90d, count(*) FILTER (WHERE ok)::int AS ok_90d
       FROM probe WHERE ok IS NOT NULL AND slot_start > $4 AND slot_start <= $5 GROUP BY country`,
      [since['24h'], since['7d'], since['30d'], since['90d'], upTo],
    );
    return rows.map((r) => ({
      country: r.country,
      probes: { '24h': r.probes_24h, '7d': r.probes_7d, '30d': r.probes_30d, '90d': r.probes_90d },
      ok: { '24h': r.ok_24h, '7d': r.ok_7d, '30d': r.ok_30d, '90d': r.ok_90d },
    }));
  }

  /** Per register and UTC day, finished probes with their slot in [from, upTo]. */
  async dailyCounts(from: Date, upTo: Date): Promise<DailyCounts[]> {
    return queryRows<DailyCounts>(
      this.dataSource,
      `SELECT country, to_char(slot_start AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS probes, count(*) FILTER (WHERE ok)::int AS ok
       FROM probe WHERE ok IS NOT NULL AND slot_start >= $1 AND slot_start <= $2 GROUP BY 1, 2`,
      [from, upTo],
    );
  }

  /** Each register's last finished probe with its slot up to `upTo`. */
  async lastFinished(upTo: Date): Promise<LastProbe[]> {
    const rows = await queryRows<LastProbeRow>(
      this.dataSource,
      `SELECT DISTINCT ON (country) country, slot_start, finished_at, ok, latency_ms, http_status, error_class
       FROM probe WHERE ok IS NOT NULL AND slot_start <= $1 ORDER BY country, slot_start DESC`,
      [upTo],
    );
    return rows.map((r) => ({
      country: r.country,
      slotStart: r.slot_start,
      finishedAt: r.finished_at,
      ok: r.ok,
      latencyMs: r.latency_ms,
      httpStatus: r.http_status,
      errorClass: r.error_class,
    }));
  }

  /** When each register last answered a probe with its slot up to `upTo`, however long ago. */
  async lastSuccess(upTo: Date): Promise<Array<{ country: string; at: Date | null }>> {
    return queryRows<{ country: string; at: Date | null }>(
      this.dataSource,
      `SELECT country, max(finished_at) AS at FROM probe WHERE ok AND slot_start <= $1 GROUP BY country`,
      [upTo],
    );
  }
}
