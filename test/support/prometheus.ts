import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Debian's promtool (package `prometheus`), or PROMTOOL_PATH. */
export const PROMTOOL = process.env.PROMTOOL_PATH ?? '/usr/bin/promtool';

/**
 * `describe` when promtool is there (or CI is set, so that a missing promtool fails there),
 * `describe.skip` with one line saying why otherwise.
 */
export function describeWithPromtool(name: string): jest.Describe {
  if (!existsSync(PROMTOOL) && process.env.CI !== 'true') {
    console.log(`${name}: skipped, no promtool at ${PROMTOOL} (apt-get install prometheus, or set PROMTOOL_PATH)`);
    return describe.skip;
  }
  return describe;
}

/** Whether promtool is there (a line says so when not); in CI its absence is a failure, not a skip. */
export function hasPromtool(): boolean {
  if (existsSync(PROMTOOL)) return true;
  if (process.env.CI === 'true')
    throw new Error(`no promtool at ${PROMTOOL}: CI installs it (apt-get install prometheus)`);
  console.log(
    `promtool check metrics: skipped, no promtool at ${PROMTOOL} (apt-get install prometheus, or set PROMTOOL_PATH)`,
  );
  return false;
}

/** Runs promtool; its exit code and what it printed. */
export function promtool(args: string[], input?: string): { code: number | null; output: string } {
  const r = spawnSync(PROMTOOL, args, { input, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

/** One sample of a metrics page. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A Prometheus text page: each family's type, and every sample. */
export interface MetricsPage {
  types: Map<string, string>;
  samples: Sample[];
}

export function parseMetricsPage(text: string): MetricsPage {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1], type[2]);
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return { types, samples };
}

/** The samples of one family (a histogram's: its _bucket, _sum and _count). */
export function samplesOf(page: MetricsPage, family: string): Sample[] {
  const names =
    page.types.get(family) === 'histogram' ? [`${family}_bucket`, `${family}_sum`, `${family}_count`] : [family];
  return page.samples.filter((s) => names.includes(s.name));
}

/** The label names a family's samples carry (`le` aside). */
export function labelNamesOf(page: MetricsPage, family: string): string[] {
  const names = new Set<string>();
  for (const s of samplesOf(page, family)) for (const k of Object.keys(s.labels)) if (k !== 'le') names.add(k);
  return [...names].sort();
}

/** The TCP ports a process listens on, from /proc (Linux). */
export function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]);
    } catch {
      /* closed meanwhile */
    }
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // st 0A: LISTEN; f[9]: the socket's inode.
      if (f.length > 9 && f[3] === '0A' && inodes.has(f[9])) ports.add(parseInt(f[1].split(':')[1], 16));
    }
  }
  return [...ports].sort((a, b) => a - b);
}

/** The service's own families, their types and label names (Node's default process metrics aside). */
export const SERVICE_FAMILIES: Record<string, { type: string; labels: string[] }> = {
  http_request_duration_seconds: { type: 'histogram', labels: ['method', 'route', 'status_class'] },
  job_queue_depth: { type: 'gauge', labels: ['queue', 'state'] },
  webhook_delivery_attempts_total: { type: 'counter', labels: ['outcome'] },
  webhook_delivery_lag_seconds: { type: 'histogram', labels: ['attempt'] },
  webhook_deliveries_failed_total: { type: 'counter', labels: [] },
  webhook_endpoints_disabled_total: { type: 'counter', labels: [] },
  register_state: { type: 'gauge', labels: ['register', 'state'] },
  register_probe_duration_seconds: { type: 'histogram', labels: ['register', 'result'] },
  detection_checks_total: { type: 'counter', labels: ['outcome', 'register'] },
  detection_changes_total: { type: 'counter', labels: ['kind', 'register'] },
  detection_feed_cursor_age_seconds: { type: 'gauge', labels: ['feed', 'register'] },
  database_clock_offset_seconds: { type: 'gauge', labels: [] },
};

/** Label values that would make a family's series unbounded: URLs, account, endpoint, event or company ids. */
export const UNBOUNDED_VALUE = /^https?:|\/\/|^(acc|we|evt|msg|dlv|wch|ent)_|^\d{6,}$/;
