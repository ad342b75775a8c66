import { failureRuns } from './delivery-outcomes';

const t = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));

describe('failureRuns (group-committed outcomes and an endpoint’s run of failures)', () => {
  it('a batch ending with a success clears the run', () => {
    expect(
      failureRuns([
        { endpointId: 'a', succeeded: false, startedAt: t(1) },
        { endpointId: 'a', succeeded: true, startedAt: t(2) },
      ]).get('a'),
    ).toEqual({ healthy: true, since: null, reset: true, failures: 0 });
  });

  it('failures alone continue a stored run, or start one at the first failure', () => {
    expect(
      failureRuns([
        { endpointId: 'a', succeeded: false, startedAt: t(1) },
        { endpointId: 'a', succeeded: false, startedAt: t(2) },
      ]).get('a'),
    ).toEqual({ healthy: false, since: t(1), reset: false, failures: 2 });
  });

  it('failures after a success start a new run at the first of them, whatever was stored', () => {
    expect(
      failureRuns([
        { endpointId: 'a', succeeded: false, startedAt: t(1) },
        { endpointId: 'a', succeeded: true, startedAt: t(2) },
        { endpointId: 'a', succeeded: false, startedAt: t(3) },
        { endpointId: 'a', succeeded: false, startedAt: t(4) },
      ]).get('a'),
    ).toEqual({ healthy: false, since: t(3), reset: true, failures: 2 });
  });

  it('keeps endpoints apart', () => {
    const runs = failureRuns([
      { endpointId: 'a', succeeded: false, startedAt: t(1) },
      { endpointId: 'b', succeeded: true, startedAt: t(2) },
    ]);
    expect(runs.get('a')).toEqual({ healthy: false, since: t(1), reset: false, failures: 1 });
    expect(runs.get('b')).toEqual({ healthy: true, since: null, reset: true, failures: 0 });
  });
});
