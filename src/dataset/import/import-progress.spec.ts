import { formatBytes, formatDuration, LogProgress } from './import-progress';

describe('import progress without a terminal', () => {
  afterEach(() => jest.useRealTimers());

  it('logs a plain line every interval with rows, rate, share of the file and ETA', () => {
    jest.useFakeTimers({ now: new Date('2025-01-01T00:00:00Z') });
    const lines: string[] = [];
    const p = new LogProgress('NO enheter-json', (l) => lines.push(l), 10_000);
    p.start(200 * 1024 * 1024);
    p.update({ rows: 1000, rejected: 0, bytesRead: 1024, totalBytes: 200 * 1024 * 1024 });
    jest.setSystemTime(new Date('2025-01-01T00:00:20Z'));
    p.update({ rows: 500_000, rejected: 3, bytesRead: 50 * 1024 * 1024, totalBytes: 200 * 1024 * 1024 });
    jest.setSystemTime(new Date('2025-01-01T00:01:20Z'));
    p.stop({ rows: 2_000_000, rejected: 7, bytesRead: 200 * 1024 * 1024, totalBytes: 200 * 1024 * 1024 });
    expect(lines).toEqual([
      'NO enheter-json: reading 200 MB',
      'NO enheter-json: 500,000 rows (25,000 rows/s), 3 rejected, 25% of 200 MB, ETA 1m00s',
      'NO enheter-json: 2,000,000 rows (25,000 rows/s), 7 rejected, done in 1m20s',
    ]);
  });

  it('says where a failed run stopped', () => {
    const lines: string[] = [];
    const p = new LogProgress('GB', (l) => lines.push(l));
    p.start(1000);
    p.stop({ rows: 0, rejected: 0, bytesRead: 500, totalBytes: 1000 }, true);
    expect(lines[1]).toMatch(/^GB: 0 rows \(0 rows\/s\), 0 rejected, stopped after 0s at 50% of 1000 B$/);
  });

  it('formats sizes and durations', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 kB');
    expect(formatBytes(196 * 1024 * 1024)).toBe('196 MB');
    expect(formatDuration(59.4)).toBe('59s');
    expect(formatDuration(3725)).toBe('1h02m');
    expect(formatDuration(Number.NaN)).toBe('?');
  });
});
