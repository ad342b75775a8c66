import { Injectable } from '@nestjs/common';
import { AppConfig } from '../platform/config/app-config';
import { Clock } from '../platform/clock';
import { LEI_DEFINITION } from '../registers/lei/lei.definition';
import { REGISTER_TABLE } from '../registers/registers';
import { LEI_INDEX, type SourceId } from '../registers/source-id';
import { ProbeStore, UptimeWindow } from './probe-store';
import { RegisterStatusService } from './register-status.service';
import type { HealthReportDto, StatusReportDto, UptimeWindowDto } from './dto/status-report.dto';

const DAY_MS = 86_400_000;
export const UPTIME_WINDOWS: Record<UptimeWindow, number> = { '24h': 1, '7d': 7, '30d': 30, '90d': 90 };
const DAILY_DAYS = 90;

/**
 * Uptime per register (and of the LEI index, in `indexes`) from finished probes: share of successful probes over the last
 * 24 h / 7 d / 30 d / 90 d (by slot time), per UTC day for 90 days, and the last probe.
 * A probe that never finished (its worker died) counts in no window.
 */
@Injectable()
export class StatusReportService {
  constructor(
    private readonly probes: ProbeStore,
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
      this.probes.uptimeCounts({ '24h': since(1), '7d': since(7), '30d': since(30), '90d': since(90) }, now),
      this.probes.dailyCounts(firstDay, now),
      this.probes.lastFinished(now),
      this.statuses.all(),
    ]);
    // A successful probe older than 90 days still says when the register last answered.
    const lastSuccessEver = await this.probes.lastSuccess(now);
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
        (Object.keys(UPTIME_WINDOWS) as UptimeWindow[]).map((key) => [
          key,
          window(w?.probes[key] ?? 0, w?.ok[key] ?? 0),
        ]),
      ) as Record<UptimeWindow, UptimeWindowDto>;
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
              at: new Date(l.finishedAt).toISOString(),
              slotStart: new Date(l.slotStart).toISOString(),
              ok: l.ok,
              latencyMs: l.latencyMs,
              httpStatus: l.httpStatus,
              errorClass: l.errorClass,
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
