import type { HealthReport, IndexStatusReport, RegisterStatusReport } from '../shared/api-types';

/** What the page calls a register's state: the API's status, with a degraded register that answered no probe for a day called an outage. */
export type Condition = 'live' | 'degraded' | 'outage' | 'paused';

const DAY_MS = 86_400_000;

export function conditionOf(r: HealthReport, now: Date): Condition {
  if (r.status !== 'degraded') return r.status as Condition;
  const day = r.uptime['24h'];
  const lastSuccess = r.lastSuccessAt ? Date.parse(r.lastSuccessAt) : null;
  // Down all day: probes ran in the last 24 hours and none was answered (Statuspage's major outage).
  const downAllDay =
    day.probes > 0 && day.uptime === 0 && (lastSuccess === null || now.getTime() - lastSuccess >= DAY_MS);
  return downAllDay ? 'outage' : 'degraded';
}

const LABELS: Record<Condition, string> = { live: 'Live', degraded: 'Degraded', outage: 'Outage', paused: 'Paused' };

export function conditionLabel(c: Condition): string {
  return LABELS[c];
}

/**
 * One line over all registers: "All 9 registers are live." or "7 of 9 registers are live.
 * Outage: …", and the LEI index when it is not live.
 */
export function summaryLine(
  reports: readonly RegisterStatusReport[],
  indexes: readonly IndexStatusReport[],
  now: Date,
): string {
  const notLive = indexes
    .map((i) => [i, conditionOf(i, now)] as const)
    .filter(([, c]) => c !== 'live')
    .map(([i, c]) => ` The ${i.short} LEI index: ${conditionLabel(c).toLowerCase()}.`)
    .join('');
  return registersLine(reports, now) + notLive;
}

function registersLine(reports: readonly RegisterStatusReport[], now: Date): string {
  const byCondition = new Map<Condition, string[]>();
  for (const r of reports) {
    const c = conditionOf(r, now);
    byCondition.set(c, [...(byCondition.get(c) ?? []), `${r.short} (${r.country})`]);
  }
  const live = byCondition.get('live')?.length ?? 0;
  if (live === reports.length) return `All ${reports.length} registers are live.`;
  const parts = [`${live} of ${reports.length} registers are live.`];
  for (const c of ['outage', 'degraded', 'paused'] as const) {
    const names = byCondition.get(c);
    if (names) parts.push(`${conditionLabel(c)}: ${names.join(', ')}.`);
  }
  return parts.join(' ');
}
