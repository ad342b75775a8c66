import { AppConfig } from './app-config';
import { formatDuration, parseDuration, parseSchedule } from './durations';

describe('durations in configuration', () => {
  it('reads the default retry schedule and the disable delay', () => {
    expect(parseSchedule('5s,5m,30m,2h,5h,10h,10h')).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(parseDuration('5d')).toBe(432_000_000);
    expect(parseDuration(' 250ms ')).toBe(250);
    expect(formatDuration(300_000)).toBe('5m');
    expect(formatDuration(1_500)).toBe('1500ms');
  });

  it.each(['', '5', '5 sec', '5s,,1m', '1m,5s', '0s', '-5s', '5w', '1s,'.repeat(21) + '1s'])(
    'refuses the schedule %j',
    (text) => {
      expect(() => parseSchedule(text)).toThrow();
    },
  );

  it('stops the boot with a message naming each bad variable', () => {
    expect(() =>
      AppConfig.fromEnv({
        WEBHOOK_RETRY_SCHEDULE: '5s,soon',
        WEBHOOK_DISABLE_AFTER: 'forever',
        WEBHOOK_TARGET_ALLOWLIST: 'localhost',
      }),
    ).toThrow(
      /WEBHOOK_RETRY_SCHEDULE: "soon" is not a duration[\s\S]*WEBHOOK_DISABLE_AFTER: "forever" is not a duration|WEBHOOK_TARGET_ALLOWLIST: "localhost" is not an IP address/,
    );
    try {
      AppConfig.fromEnv({
        WEBHOOK_RETRY_SCHEDULE: '5s,soon',
        WEBHOOK_DISABLE_AFTER: 'forever',
        WEBHOOK_TARGET_ALLOWLIST: 'localhost',
      });
    } catch (err) {
      const message = (err as Error).message;
      for (const name of ['WEBHOOK_RETRY_SCHEDULE', 'WEBHOOK_DISABLE_AFTER', 'WEBHOOK_TARGET_ALLOWLIST'])
        expect(message).toContain(name);
    }
  });

  it('gives typed values to the event side', () => {
    const config = AppConfig.fromEnv({ WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s', WEBHOOK_TARGET_ALLOWLIST: '127.0.0.0/8' });
    expect(config.webhooks).toMatchObject({
      retrySchedule: [1000, 1000, 1000],
      timeoutMs: 15_000,
      disableAfterMs: 432_000_000,
      endpointConcurrency: 4,
    });
    expect(config.webhooks.targetAllowlist.map(([a, b]) => `${a.toString()}/${b}`)).toEqual(['127.0.0.0/8']);
  });
});
