/** Units a duration in configuration may use. */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * `500ms`, `5s`, `5m`, `2h`, `5d` → milliseconds. A bare number is refused: a retry schedule
 * or a lifetime without a unit is too easy to misread.
 */
export function parseDuration(text: string): number {
  const m = /^\s*(\d+)\s*(ms|s|m|h|d)\s*$/.exec(text);
  if (!m)
    throw new Error(
      `"${text.slice(0, 40)}" is not a duration (a whole number and a unit: ms, s, m, h or d; e.g. 5s, 30m, 5d)`,
    );
  const ms = Number(m[1]) * UNIT_MS[m[2]];
  if (ms <= 0) throw new Error(`"${text.trim()}" must be longer than zero`);
  return ms;
}

/** `5s,5m,30m` → [5000, 300000, 1800000]: the delays before each retry, in order. */
export function parseSchedule(text: string): number[] {
  const parts = text.split(',').map((s) => s.trim());
  if (parts.length === 0 || parts.some((p) => p === ''))
    throw new Error('a comma-separated list of durations, e.g. 5s,5m,30m,2h');
  if (parts.length > 20) throw new Error('at most 20 retries');
  const delays = parts.map(parseDuration);
  for (let i = 1; i < delays.length; i++) {
    if (delays[i] < delays[i - 1]) throw new Error(`delays must not shrink: ${parts[i]} comes after ${parts[i - 1]}`);
  }
  return delays;
}

/** 300000 → `5m`, for messages. */
export function formatDuration(ms: number): string {
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1_000],
  ] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}
