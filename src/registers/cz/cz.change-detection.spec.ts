import { ManualClock } from '../../platform/clock';
import { AppConfig, RegisterConfig } from '../../platform/config/app-config';
import { HttpClientFactory } from '../client/http-client.factory';
import { FakeRegister, fixture } from '../../../test/support/fake-register';
import { NOTIFICATION_SOURCES } from './ares-code-lists';
import { parseSubjekt } from './ares-parsers';
import { CZ_CHANGE_DETECTION } from './cz.change-detection';
import { CzNotificationFeed } from './cz-notification-feed';
import { CzConnector } from './cz.connector';
import { CZ, CZ_DEFINITION } from './cz.definition';
import { CZ_REGISTER } from './cz.register';

// Until CZ is in the register table, the HTTP client factory finds its politeness here
// (spacing dropped so the spec does not wait). Remove once cz.definition is in REGISTER_DEFINITIONS.
jest.mock('../register-table', () => {
  const actual = jest.requireActual('../register-table');
  const { CZ_DEFINITION: def } = jest.requireActual('./cz.definition');
  const fast = { maxConcurrent: 4, minTimeMs: 0 };
  const cz = { ...def, endpoints: { ...def.endpoints, API: { ...def.endpoints.API, politeness: fast } } };
  return { ...actual, findRegister: (c: string) => (c.toUpperCase() === 'CZ' ? cz : actual.findRegister(c)) };
});

const F = 'registers/cz';
const NOTIFIKACE = '/ekonomicke-subjekty-notifikace';

describe('CZ change detection', () => {
  const fake = new FakeRegister();
  let config: AppConfig;
  let http: HttpClientFactory;
  let clock: ManualClock;

  beforeAll(async () => {
    await fake.start();
  });
  afterAll(async () => {
    await fake.stop();
  });
  beforeEach(() => {
    fake.reset();
    config = AppConfig.fromEnv({ REGISTER_TIMEOUT_MS: '500' });
    (config.registers as Record<string, RegisterConfig>)[CZ] = {
      urls: { API: fake.url, WEB: CZ_DEFINITION.endpoints.WEB.defaultUrl },
      credentials: {},
      paused: false,
    };
    http = new HttpClientFactory(config);
    clock = new ManualClock(new Date('2026-07-20T06:00:00.000Z'));
  });
  afterEach(() => http.onApplicationShutdown());

  it('follows the notification feed, keyless, re-reading through the API endpoint', () => {
    expect(CZ_CHANGE_DETECTION.mode(config)).toBe('feed');
    expect(CZ_CHANGE_DETECTION.readEndpoint(config)).toBe('API');
    expect(Object.keys(CZ_DEFINITION.endpoints)).toContain(CZ_CHANGE_DETECTION.readEndpoint(config));
    expect(CZ_CHANGE_DETECTION.readme.credentials).toBe('none');
    expect(CZ_REGISTER.changeDetection).toBe(CZ_CHANGE_DETECTION);
  });

  it('names a changed subject from a batch; its re-read shows the change (derived: renamed)', async () => {
    const connector = new CzConnector(config, http, clock);
    const feed = CZ_CHANGE_DETECTION.createFeed!({ config, http, clock, connector });
    expect(feed).toBeInstanceOf(CzNotificationFeed);
    expect(feed.url).toBe(`${fake.url}${NOTIFIKACE}`);
    fake.post(`${NOTIFIKACE}/vyhledat`, (req) =>
      JSON.parse(req.body).datovyZdroj === 'vr'
        ? { fixture: `${F}/ares-ekonomicke-subjekty-notifikace-vyhledat-vr-trimmed-2-batches.json` }
        : { status: 404, fixture: `${F}/ares-error-404-nenalezeno.json` },
    );
    fake.get(`${NOTIFIKACE}/datovy-zdroj/vr/cislo-davky/680`, {
      fixture: `${F}/ares-ekonomicke-subjekty-notifikace-davka-vr-680-derived.json`,
    });
    fake.get('/ekonomicke-subjekty/25834151', {
      fixture: `${F}/ares-ekonomicke-subjekty-ico-25834151-derived-renamed-v-likvidaci.json`,
    });

    // Watching since 2026-07-20: batch 671 (2026-07-15) is before, 680 (2026-07-25) is read.
    const page = await feed.read(feed.start(clock.now()));
    expect(page.more).toBe(false);
    expect(page.entries.map((e) => e.registrationNumber)).toContain('25834151');
    // The whole feed read cost one list request per source and one batch request, whatever is watched.
    expect(fake.requests).toHaveLength(NOTIFICATION_SOURCES.length + 1);

    const baseline = parseSubjekt(JSON.parse(fixture(`${F}/ares-ekonomicke-subjekty-ico-25834151-hella.json`)));
    const reread = await connector.readRecord('25834151');
    expect(baseline.name).toBe('HELLA AUTOTECHNIK NOVA, s.r.o.');
    expect(reread).toMatchObject({ name: 'HELLA AUTOTECHNIK NOVA, s.r.o. v likvidaci', address: baseline.address });
  });
});
