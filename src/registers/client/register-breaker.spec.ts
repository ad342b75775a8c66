import { AsyncLocalStorage } from 'node:async_hooks';
import { AxiosError } from 'axios';
import { ManualClock } from '../../platform/clock';
import { AppConfig } from '../../platform/config/app-config';
import { RegisterBreaker, RegisterUnreachableError } from './register-breaker';

const refused = () => Object.assign(new AxiosError('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
const answered503 = () =>
  new AxiosError('503', 'ERR_BAD_RESPONSE', undefined, undefined, {
    status: 503,
    data: '',
    headers: {},
    statusText: '',
    config: {} as never,
  });

describe('RegisterBreaker', () => {
  let clock: ManualClock;
  let breaker: RegisterBreaker;
  beforeEach(() => {
    clock = new ManualClock(new Date('2026-11-22T12:00:00.000Z'));
    breaker = new RegisterBreaker(AppConfig.fromEnv({ REGISTER_BREAKER_RETRY_SECONDS: '30' }), clock);
  });

  it('opens after two connection-level read failures, not after answers it dislikes', () => {
    breaker.record('GB', answered503(), false);
    breaker.record('GB', answered503(), false);
    expect(breaker.openState('GB')).toBeNull();
    breaker.record('GB', refused(), false);
    expect(breaker.openState('GB')).toBeNull();
    breaker.record('GB', refused(), false);
    expect(breaker.openState('GB')).toMatchObject({
      errorClass: 'connection_refused',
      since: new Date('2026-11-22T12:00:00.000Z'),
      retrySeconds: 30,
    });
    expect(() => breaker.admit('GB')).toThrow(RegisterUnreachableError);
    expect(breaker.openState('NO')).toBeNull();
  });

  it('opens on one failed probe; probes go out while it is open', async () => {
    await breaker.asProbe(async () => breaker.record('NO', refused(), false));
    expect(breaker.openState('NO')).not.toBeNull();
    await breaker.asProbe(async () => expect(breaker.admit('NO')).toEqual({ trial: false }));
  });

  it('leaves no promise hooks on once its probes are done, and keeps a probe one while another ends', async () => {
    // While an AsyncLocalStorage is enabled, Node runs promise hooks on every promise (of every
    // test file in this process too, so the storage's own switch is what is watched).
    const disable = jest.spyOn(AsyncLocalStorage.prototype, 'disable');
    breaker.record('NO', refused(), false);
    breaker.record('NO', refused(), false);
    let endFirst!: () => void;
    const first = breaker.asProbe(() => new Promise<void>((resolve) => (endFirst = resolve)));
    const second = breaker.asProbe(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      endFirst();
      await first;
      // The other probe is done; this one still goes out whatever the breaker says.
      return breaker.admit('NO');
    });
    expect(disable).not.toHaveBeenCalled();
    expect(await second).toEqual({ trial: false });
    // Once the last probe is done, and only then.
    expect(disable).toHaveBeenCalledTimes(1);
    disable.mockRestore();
    expect(() => breaker.admit('NO')).toThrow(RegisterUnreachableError);
  });

  it('lets one trial through after the retry time; its failure re-opens, its success closes', () => {
    breaker.record('FR', refused(), false);
    breaker.record('FR', refused(), false);
    clock.advance(30_000);
    expect(breaker.openState('FR')).toBeNull();
    expect(breaker.admit('FR')).toEqual({ trial: true });
    expect(() => breaker.admit('FR')).toThrow(RegisterUnreachableError); // only one trial at a time
    breaker.record('FR', refused(), true);
    expect(() => breaker.admit('FR')).toThrow(RegisterUnreachableError);
    clock.advance(30_000);
    expect(breaker.admit('FR')).toEqual({ trial: true });
    breaker.record('FR', undefined, true);
    expect(breaker.openState('FR')).toBeNull();
    expect(breaker.admit('FR')).toEqual({ trial: false });
  });

  it('takes no verdict from a request its caller abandoned, and ends the trial it was', () => {
    breaker.record('GB', refused(), false);
    breaker.record('GB', refused(), false);
    clock.advance(30_000);
    expect(breaker.admit('GB')).toEqual({ trial: true });
    breaker.abandon('GB', true);
    // Still open, and a new trial may go out at once.
    expect(breaker.admit('GB')).toEqual({ trial: true });
  });

  it('keeps the LEI index apart from every register', () => {
    breaker.record('LEI', refused(), false);
    breaker.record('LEI', refused(), false);
    expect(breaker.openState('LEI')).not.toBeNull();
    expect(breaker.openState('GB')).toBeNull();
    expect(() => breaker.admit('LEI')).toThrow(RegisterUnreachableError);
  });

  it('tells requests waiting in the politeness queue when it opens', () => {
    const seen: string[] = [];
    const off = breaker.onOpen('DK', (open) => seen.push(open.errorClass));
    breaker.record('DK', refused(), false);
    breaker.record('DK', refused(), false);
    off();
    expect(seen).toEqual(['connection_refused']);
  });
});
