import { ManualClock } from '../../platform/clock';
import { connectorBuilder } from '../../../test/support/connectors';
import { FakeRegister, fixture } from '../../../test/support/fake-register';
import { loadConfig } from '../../app/config';
import { HttpClientFactory } from '../client/http-client.factory';
import { NOTIFICATION_SOURCES } from './ares-code-lists';
import { parseSubjekt } from './ares-parsers';
import { CZ_CHANGE_DETECTION } from './cz.change-detection';
import { CzNotificationFeed } from './cz-notification-feed';
import { CzConnector } from './cz.connector';
import { CZ_DEFINITION } from './cz.definition';
import { CZ_REGISTER } from './cz.register';

const F = 'registers/cz';
const NOTIFIKACE = '/ekonomicke-subjekty-notifikace';

// Requests keep the register table's politeness (about four a second): the spec waits for it.
jest.setTimeout(30_000);

describe('CZ change detection', () => {
  const fake = new FakeRegister();
  const clock = new ManualClock(new Date('2026-07-20T06:00:00.000Z'));
  const env = () => ({ REGISTER_CZ_API_URL: fake.url, REGISTER_TIMEOUT_MS: '500' });
  const connectors = connectorBuilder('CZ', CzConnector, clock, env);
  let http: HttpClientFactory;

  beforeAll(async () => {
    await fake.start();
  });
  afterAll(async () => {
    await fake.stop();
  });
  beforeEach(() => fake.reset());
  afterEach(() => {
    connectors.shutdown();
    http?.onApplicationShutdown();
  });

  it('follows the notification feed, keyless, re-reading through the API endpoint', () => {
    const settings = loadConfig(env()).registers.of('CZ');
    expect(CZ_CHANGE_DETECTION.mode(settings)).toBe('feed');
    expect(CZ_CHANGE_DETECTION.readEndpoint(settings)).toBe('API');
    expect(Object.keys(CZ_DEFINITION.endpoints)).toContain(CZ_CHANGE_DETECTION.readEndpoint(settings));
    expect(CZ_CHANGE_DETECTION.readme.credentials).toBe('none');
    // The insolvency register and the register of bankrupts have no batches: a day without a read is the most.
    expect(CZ_CHANGE_DETECTION.rereadAfterSeconds).toBe(86_400);
    expect(CZ_REGISTER.changeDetection).toBe(CZ_CHANGE_DETECTION);
  });

  it('names a changed subject from a batch; its re-read shows the change (derived: renamed)', async () => {
    const { app: config, registers } = loadConfig(env());
    http = new HttpClientFactory(config, registers);
    const connector = connectors.build();
    const feed = CZ_CHANGE_DETECTION.createFeed!({ settings: registers.of('CZ'), config, http, clock, connector });
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
