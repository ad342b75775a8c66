import { readFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import axios from 'axios';
import { ManualClock } from '../../platform/clock';
import type { AppConfig } from '../../platform/config/app-config';
import type { HttpClientFactory } from '../client/http-client.factory';
import { comparisonKeys, diffSnapshot, watchedValues } from '../../events/monitoring/snapshots/company-diff';
import type { ChangeSourceDeps } from '../change-detection';
import type { RegisterConnector } from '../connector';
import { normalizeName } from '../../dataset/normalize-name';
import { KRS_REGISTERED } from './krs-parsers';
import { PlBiuletynFeed } from './pl-biuletyn-feed';
import { PL_CHANGE_DETECTION } from './pl.change-detection';
import { PlConnector } from './pl.connector';
import { PL_DEFINITION } from './pl.definition';
import { PL_REGISTER } from './pl.register';

const DIR = join(__dirname, '../../../test/fixtures/registers/pl');
const fixture = (file: string) => readFileSync(join(DIR, file), 'utf8');
const GYM = '/api/krs/OdpisAktualny/0001268296?rejestr=P&format=json';

describe('PL register and change detection plan', () => {
  let server: Server;
  let base = '';
  const routes = new Map<string, string>();
  const requests: string[] = [];
  const calls: string[] = [];
  let deps: ChangeSourceDeps;

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(req.url!);
      const body = routes.get(req.url!);
      if (body === undefined) return res.writeHead(404).end(fixture('krs-error-404-not-found.json'));
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/krs`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  beforeEach(() => {
    routes.clear();
    requests.length = 0;
    calls.length = 0;
    // AppConfig and HttpClientFactory cannot be built for PL before integration (see pl.connector.spec.ts).
    const config = {
      register: () => ({ urls: { API: base }, credentials: {}, paused: false }),
      probe: { timeoutMs: 500 },
    } as unknown as AppConfig;
    const http = {
      forRegister: (country: string, purpose: string) => {
        calls.push(`${country}:${purpose}`);
        return axios.create({ baseURL: base });
      },
    } as unknown as HttpClientFactory;
    const clock = new ManualClock(new Date('2026-09-23T00:20:00+02:00'));
    deps = { config, http, clock, connector: new PlConnector(config, http, clock) as RegisterConnector };
    calls.length = 0;
  });

  it('is a keyless feed read through the API endpoint', () => {
    expect(PL_CHANGE_DETECTION.mode(deps.config)).toBe('feed');
    expect(PL_CHANGE_DETECTION.readEndpoint(deps.config)).toBe('API');
    expect(PL_CHANGE_DETECTION.readme.credentials).toBe('none');
    expect(Object.keys(PL_DEFINITION.endpoints)).toEqual([PL_CHANGE_DETECTION.readEndpoint(deps.config)]);
    const feed = PL_CHANGE_DETECTION.createFeed!(deps);
    expect(feed).toBeInstanceOf(PlBiuletynFeed);
    expect(feed.url).toBe(`${base}/BiuletynGodzinowy`);
    expect(calls).toEqual(['PL:API']);
  });

  it.each([
    ['krs-odpisaktualny-P-0001268296-derived-renamed-moved.json', ['name', 'address']],
    ['krs-odpisaktualny-P-0001268296-derived-w-likwidacji.json', ['name', 'status']],
  ])('finds a watched entity named by the daily bulletin and its changes on re-read (%s)', async (changed, fields) => {
    routes.set(GYM, fixture('krs-odpisaktualny-P-0001268296-gym-center-sp-zoo.json'));
    const before = watchedValues((await deps.connector.readRecord('0001268296'))!);
    expect(before.status).toBe(KRS_REGISTERED);

    routes.set('/api/krs/Biuletyn/2026-09-22', fixture('krs-biuletyn-2026-09-22-derived-from-hourly-10-11.json'));
    const page = await PL_CHANGE_DETECTION.createFeed!(deps).read('2026-09-22T23');
    expect(page.cursor).toBe('2026-09-23T00');
    expect(page.entries).toContainEqual({ registrationNumber: '0001268296' });

    routes.set(GYM, fixture(changed));
    const after = (await deps.connector.readRecord('0001268296'))!;
    const changes = diffSnapshot({ values: before, keys: comparisonKeys(before) }, watchedValues(after));
    expect(changes.map((c) => c.field)).toEqual(fields);
    for (const c of changes) expect(c.previous).not.toBe(c.current);
  });

  it('collects definition, connector, identifiers, (no) bulk files, name words and detection in one Register', () => {
    expect(PL_REGISTER.definition).toBe(PL_DEFINITION);
    expect(PL_REGISTER.connector).toBe(PlConnector);
    expect(PL_REGISTER.recognizeIdentifier('0000028860')).toMatchObject({ kind: 'number', scheme: 'krs' });
    expect(PL_REGISTER.bulkFormats).toEqual([]);
    expect(PL_REGISTER.changeDetection).toBe(PL_CHANGE_DETECTION);
    // The same rule registers.spec.ts applies to every register once PL is listed there.
    for (const word of PL_REGISTER.nameStopWords) expect(word).toMatch(/^[a-z0-9]{3,}$/);
    expect(normalizeName('SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ').split(' ')).toEqual(
      expect.arrayContaining(['spolka', 'ograniczona', 'odpowiedzialnoscia']),
    );
  });

  it('describes the register as the table needs it', () => {
    expect(PL_DEFINITION).toMatchObject({
      country: 'PL',
      countryName: 'Poland',
      short: 'KRS',
      provides: { officers: true, filings: false, monitoring: true },
      credentials: {},
      requiredCredentials: [],
    });
    expect(PL_DEFINITION.endpoints.API.defaultUrl).toBe('https://api-krs.ms.gov.pl/api/krs');
    expect(PL_DEFINITION.officersNote).toMatch(/masked by the Ministry of Justice/);
    expect(PL_DEFINITION.doesNotPublish).toMatch(/Name search/);
  });
});
