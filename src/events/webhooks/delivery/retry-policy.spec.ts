import { nextStep, parseRetryAfter, RetryRules } from './retry-policy';

const SCHEDULE = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
const now = new Date('2026-11-23T10:00:00Z');
const rules = (over: Partial<RetryRules> = {}): RetryRules => ({
  schedule: SCHEDULE,
  maxAttempts: SCHEDULE.length + 1,
  random: () => 0.5,
  ...over,
});

describe('retry policy', () => {
  it('succeeds on any 2xx', () => {
    for (const status of [200, 201, 202, 204, 299])
      expect(nextStep({ status }, 1, rules(), now)).toEqual({ state: 'succeeded' });
  });

  it('retries on the schedule: 5s, 5m, 30m, 2h, 5h, 10h, 10h, then fails for good', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7].map(
      (a) => (nextStep({ status: 500 }, a, rules(), now) as { delayMs: number }).delayMs,
    );
    expect(delays).toEqual(SCHEDULE);
    expect(nextStep({ status: 500 }, 8, rules(), now)).toMatchObject({
      state: 'failed',
      reason: 'failed 8 attempts; no retry left',
    });
  });

  it('counts timeouts, refused connections (no status) and redirects as failures', () => {
    expect(nextStep({}, 1, rules(), now)).toMatchObject({ state: 'pending', delayMs: 5_000 });
    expect(nextStep({ status: 301 }, 1, rules(), now)).toMatchObject({ state: 'pending' });
    expect(nextStep({ status: 100 }, 1, rules(), now)).toMatchObject({ state: 'pending' });
  });

  it('jitters each delay by ±10 %', () => {
    expect(nextStep({ status: 500 }, 2, rules({ random: () => 0 }), now)).toMatchObject({ delayMs: 270_000 });
    expect(nextStep({ status: 500 }, 2, rules({ random: () => 0.999999 }), now)).toMatchObject({ delayMs: 330_000 });
  });

  it('disables the endpoint on 410 Gone at once', () => {
    expect(nextStep({ status: 410 }, 1, rules(), now)).toMatchObject({
      state: 'failed',
      disableEndpoint: expect.stringMatching(/410 Gone/),
    });
  });

  it('honours Retry-After on 429 and 503 within the schedule’s bounds, and ignores it elsewhere', () => {
    const fast = rules({ schedule: [1_000, 1_000, 5_000] });
    expect(nextStep({ status: 429, retryAfter: '3' }, 1, fast, now)).toEqual({ state: 'pending', delayMs: 3_000 });
    expect(nextStep({ status: 503, retryAfter: '3600' }, 1, fast, now)).toEqual({ state: 'pending', delayMs: 5_000 });
    expect(nextStep({ status: 429, retryAfter: '0' }, 3, fast, now)).toEqual({ state: 'pending', delayMs: 5_000 });
    expect(nextStep({ status: 503, retryAfter: 'Mon, 23 Nov 2026 10:00:04 GMT' }, 1, fast, now)).toEqual({
      state: 'pending',
      delayMs: 4_000,
    });
    expect(nextStep({ status: 500, retryAfter: '3' }, 1, fast, now)).toEqual({ state: 'pending', delayMs: 1_000 });
    expect(nextStep({ status: 429, retryAfter: 'soon' }, 1, fast, now)).toEqual({ state: 'pending', delayMs: 1_000 });
  });

  it('gives a manual retry exactly one attempt', () => {
    expect(nextStep({ status: 500 }, 9, rules({ maxAttempts: 9 }), now)).toMatchObject({ state: 'failed' });
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Mon, 23 Nov 2026 10:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:01:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('-5', now)).toBeNull();
    expect(parseRetryAfter('1e3', now)).toBeNull();
  });
});
