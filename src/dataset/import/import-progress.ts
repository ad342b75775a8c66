import { Presets, SingleBar } from 'cli-progress';

export interface ProgressSnapshot {
  rows: number;
  rejected: number;
  bytesRead: number;
  totalBytes: number;
}

/** Told about progress every few hundred rows; decides itself how often to show it. */
export interface ImportProgress {
  start(totalBytes: number): void;
  update(s: ProgressSnapshot): void;
  /** The end of the run; `failed` when it ended with an error. */
  stop(s: ProgressSnapshot, failed?: boolean): void;
}

export const SILENT_PROGRESS: ImportProgress = {
  start: () => undefined,
  update: () => undefined,
  stop: () => undefined,
};

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i += 1;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

const thousands = (n: number) => n.toLocaleString('en-US');

/** Rows per second over the whole run so far, and the ETA from bytes read against the file size. */
function rates(s: ProgressSnapshot, startedAt: number): { perSecond: number; eta: number } {
  const elapsed = Math.max((Date.now() - startedAt) / 1000, 0.001);
  const perSecond = s.rows / elapsed;
  const eta = s.bytesRead > 0 && s.totalBytes > 0 ? (elapsed * (s.totalBytes - s.bytesRead)) / s.bytesRead : Number.NaN;
  return { perSecond, eta };
}

/** A progress bar on a terminal: bytes of the file as the bar, rows, rows/s and ETA beside it. */
export class TtyProgress implements ImportProgress {
  private readonly bar: SingleBar;
  private startedAt = Date.now();
  private lastDraw = 0;

  constructor(label: string, stream: NodeJS.WriteStream = process.stderr) {
    this.bar = new SingleBar(
      {
        format: `${label} {bar} {percentage}% | {rows} rows | {rate} rows/s | {rejected} rejected | ETA {etaText}`,
        stream,
        hideCursor: true,
        clearOnComplete: false,
        etaBuffer: 50,
        noTTYOutput: false,
      },
      Presets.shades_classic,
    );
  }

  start(totalBytes: number): void {
    this.startedAt = Date.now();
    this.bar.start(Math.max(totalBytes, 1), 0, { rows: '0', rate: '0', rejected: '0', etaText: '?' });
  }

  update(s: ProgressSnapshot): void {
    const now = Date.now();
    if (now - this.lastDraw < 200) return;
    this.lastDraw = now;
    const { perSecond, eta } = rates(s, this.startedAt);
    this.bar.update(s.bytesRead, {
      rows: thousands(s.rows),
      rate: thousands(Math.round(perSecond)),
      rejected: thousands(s.rejected),
      etaText: formatDuration(eta),
    });
  }

  stop(s: ProgressSnapshot, failed = false): void {
    const { perSecond } = rates(s, this.startedAt);
    this.bar.update(failed ? s.bytesRead : s.totalBytes, {
      rows: thousands(s.rows),
      rate: thousands(Math.round(perSecond)),
      rejected: thousands(s.rejected),
      etaText: '0s',
    });
    this.bar.stop();
  }
}

/** Without a terminal (logs, CI): one plain line every `everyMs`. */
export class LogProgress implements ImportProgress {
  private startedAt = Date.now();
  private lastLine = 0;

  constructor(
    private readonly label: string,
    private readonly log: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
    private readonly everyMs = 10_000,
  ) {}

  start(totalBytes: number): void {
    this.startedAt = Date.now();
    this.lastLine = this.startedAt;
    this.log(`${this.label}: reading ${formatBytes(totalBytes)}`);
  }

  update(s: ProgressSnapshot): void {
    const now = Date.now();
    if (now - this.lastLine < this.everyMs) return;
    this.lastLine = now;
    this.log(this.line(s));
  }

  stop(s: ProgressSnapshot, failed = false): void {
    this.log(this.line(s, failed ? 'stopped' : 'done'));
  }

  private line(s: ProgressSnapshot, end?: 'done' | 'stopped'): string {
    const { perSecond, eta } = rates(s, this.startedAt);
    const pct = s.totalBytes > 0 ? Math.min(100, Math.floor((100 * s.bytesRead) / s.totalBytes)) : 0;
    const head = `${this.label}: ${thousands(s.rows)} rows (${thousands(Math.round(perSecond))} rows/s), ${thousands(s.rejected)} rejected`;
    const took = formatDuration((Date.now() - this.startedAt) / 1000);
    if (end === 'done') return `${head}, done in ${took}`;
    if (end === 'stopped') return `${head}, stopped after ${took} at ${pct}% of ${formatBytes(s.totalBytes)}`;
    return `${head}, ${pct}% of ${formatBytes(s.totalBytes)}, ETA ${formatDuration(eta)}`;
  }
}
