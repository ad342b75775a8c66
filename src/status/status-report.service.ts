import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../platform/config/app-config';
import { Clock } from '../platform/clock';
import { LEI_DEFINITION } from '../registers/lei/lei.definition';
import { REGISTER_TABLE } from '../registers/registers';
import { LEI_INDEX, type SourceId } from '../registers/source-id';
import { RegisterStatusService } from './register-status.service';
import type { HealthReportDto, StatusReportDto, UptimeWindowDto } from './dto/status-report.dto';

const DAY_MS = 86_400_000;
export const UPTIME_WINDOWS = { '24h': 1, '7d': 7, '30d': 30, '90d': 90 } as const;
const DAILY_DAYS = 90;

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

/**
 * Uptime per register (and of the LEI index, in `indexes`) from finished probes: share of successful probes over the last
 * 24 h / 7 d / 30 d / 90 d (by slot time), per UTC day for 90 days, and the last probe.
 * A probe that never finished (its worker died) counts in no window.
 */
@Injectable()
export class StatusReportService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly statuses: RegisterStatusService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async report(): Promise<StatusReportDto> {
    const now = this.clock.now();
    const since = (days: number) => new Date(now.getTime() - days * DAY_MS);
    const firstDay = new Date(
      Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (DAILY_DAYS - 1) * DAY_MS,
    );
    const [windows, daily, last, current] = await Promise.all([
      this.dataSource.query(
        `SELECT country,
           count(*) FILTER (WHERE slot_start > $1)::int AS probes_24h, count(*) FILTER (WHERE slot_start > $1 AND ok)::int AS ok_24h,
           count(*) FILTER (WHERE slot_start > $2)::int AS probes_7d,  count(*) FILTER (WHERE slot_start > $2 AND ok)::int AS ok_7d,
           count(*) FILTER (WHERE slot_start > $3)::int AS probes_30d, count(*) FILTER (WHERE slot_start > $3 AND ok)::int AS ok_30d,
           count(*)::int AS probes_90d, count(*) FILTER (WHERE ok)::int AS ok_90d
         FROM probe WHERE ok IS NOT NULL AND slot_start > $4 AND slot_start <= $5 GROUP BY country`,
        [since(1), since(7), since(30), since(90), now],
      ) as Promise<WindowRow[]>,
      this.dataSource.query(
        `SELECT country, to_char(slot_start AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS probes, count(*) FILTER (WHERE ok)::int AS ok
         FROM probe WHERE ok IS NOT NULL AND slot_start >= $1 AND slot_start <= $2 GROUP BY 1, 2`,
        [firstDay, now],
      ) as Promise<Array<{ country: string; day: string; probes: number; ok: number }>>,
      this.dataSource.query(
        `SELECT DISTINCT ON (country) country, slot_start, finished_at, ok, latency_ms, http_status, error_class
         FROM probe WHERE ok IS NOT NULL AND slot_start <= $1 ORDER BY country, slot_start DESC`,
        [now],
      ) as Promise<
        Array<{
          country: string;
          slot_start: Date;
          finished_at: Date;
          ok: boolean;
          latency_ms: number;
          http_status: number | null;
          error_class: string | null;
        }>
      >,
      this.statuses.all(),
    ]);
    // A successful probe older than 90 days still says when the register last answered.
    const lastSuccessEver: Array<{ country: string; at: Date | null }> = await this.dataSource.query(
      `SELECT country, max(finished_at) AS at FROM probe WHERE ok AND slot_start <= $1 GROUP BY country`,
      [now],
    );
    const byCountry = <T extends { country: string }>(rows: T[]) => new Map(rows.map((r) => [r.country.trim(), r]));
    const windowsBy = byCountry(windows);
    const lastBy = byCountry(last);
    const lastSuccessBy = byCountry(lastSuccessEver);
    const days = Array.from({ length: DAILY_DAYS }, (_, i) =>
      new Date(firstDay.getTime() + i * DAY_MS).toISOString().slice(0, 10),
    );

    const health = (id: SourceId, name: string, short: string): HealthReportDto => {
      const w = windowsBy.get(id);
      const l = lastBy.get(id);
      const status = current.get(id)!;
      const dayRows = new Map(daily.filter((d) => d.country.trim() === id).map((d) => [d.day, d]));
      const uptime = Object.fromEntries(
        (Object.keys(UPTIME_WINDOWS) as Array<keyof typeof UPTIME_WINDOWS>).map((key) => {
          const probes = (w?.[`probes_${key}` as keyof WindowRow] as number | undefined) ?? 0;
          const ok = (w?.[`ok_${key}` as keyof WindowRow] as number | undefined) ?? 0;
          return [key, window(probes, ok)];
        }),
      ) as Record<keyof typeof UPTIME_WINDOWS, UptimeWindowDto>;
      return {
        name,
        short,
        status: status.status,
        statusReason: status.reason,
        statusChangedAt: status.changedAt?.toISOString() ?? null,
        uptime,
        probeCount: uptime['90d'].probes,
        lastProbe: l
          ? {
              at: new Date(l.finished_at).toISOString(),
              slotStart: new Date(l.slot_start).toISOString(),
              ok: l.ok,
              latencyMs: l.latency_ms,
              httpStatus: l.http_status,
              errorClass: l.error_class,
            }
          : null,
        lastSuccessAt: lastSuccessBy.get(id)?.at ? new Date(lastSuccessBy.get(id)!.at!).toISOString() : null,
        daily: days.map((date) => {
          const d = dayRows.get(date);
          return { date, ...window(d?.probes ?? 0, d?.ok ?? 0) };
        }),
      };
    };
    const registers = REGISTER_TABLE.map((def) => ({
      country: def.country,
      ...health(def.country, def.name, def.short),
    }));
    const indexes = [{ id: LEI_INDEX, ...health(LEI_INDEX, LEI_DEFINITION.name, LEI_DEFINITION.short) }];
    return {
      apiVersion: this.config.apiVersion,
      generatedAt: now.toISOString(),
      probeIntervalSeconds: this.config.probe.intervalSeconds,
      registers,
      indexes,
    };
  }
}

function window(probes: number, ok: number): UptimeWindowDto {
  return { probes, ok, uptime: probes === 0 ? null : ok / probes };
}
