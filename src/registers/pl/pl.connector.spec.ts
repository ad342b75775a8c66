import { readFileSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import axios from 'axios';
import { ManualClock } from '../../platform/clock';
import type { AppConfig } from '../../platform/config/app-config';
import type { HttpClientFactory, RegisterClientOptions } from '../client/http-client.factory';
import { NameSearchUnsupportedError } from '../name-search-unsupported.error';
import { UpstreamError } from '../upstream-error';
import { KRS_REGISTERED, KRS_REMOVED } from './krs-parsers';
import { PlConnector } from './pl.connector';

const DIR = join(__dirname, '../../../test/fixtures/registers/pl');
const fixture = (file: string) => readFileSync(join(DIR, file), 'utf8');
const GYM = fixture('krs-odpisaktualny-P-0001268296-gym-center-sp-zoo.json');
const WOSP = fixture('krs-odpisaktualny-S-0000030897-wosp-fundacja.json');
const ORLEN = fixture('krs-odpisaktualny-P-0000028860-orlen-trimmed.json');
const LOTOS_FULL = fixture('krs-odpispelny-P-0000106150-wykreslony-removed-trimmed.json');
const NOT_FOUND = fixture('krs-error-404-not-found.json');

const NOW = '2026-09-24T08:15:30.250Z';
const NAME = 'Krajowy Rejestr Sądowy (Ministerstwo Sprawiedliwości)';

type Answer = { status: number; body?: string; type?: string };

/**
 * Until PL is in the register table, AppConfig and HttpClientFactory cannot be built for it:
 * the connector is given the two things it reads of them (the API base URL, the probe timeout,
 * a client per purpose), with plain axios behind. Once integrated, this spec should move to
 * AppConfig.fromEnv({ REGISTER_PL_API_URL }) and the real HttpClientFactory, as no.connector.spec does.
 */
describe('PlConnector (KRS Open API) against recorded responses on loopback', () => {
  let server: Server;
  let base = '';
  let routes: Record<string, Answer> = {};
  const requests: string[] = [];
  const clients: Array<{ purpose: string; options?: RegisterClientOptions }> = [];
  let clock: ManualClock;
  let connector: PlConnector;

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      requests.push(req.url!);
      const answer = routes[req.url!] ?? { status: 404, body: NOT_FOUND };
      if (answer.status === 204) return res.writeHead(204).end();
      res.writeHead(answer.status, { 'Content-Type': answer.type ?? 'application/json' }).end(answer.body ?? '');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/krs`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  beforeEach(() => {
    routes = {};
    requests.length = 0;
    clients.length = 0;
    clock = new ManualClock(new Date(NOW));
    const config = {
      register: () => ({ urls: { API: base }, credentials: {}, paused: false }),
      probe: { timeoutMs: 500 },
    } as unknown as AppConfig;
    const http = {
      forRegister: (_country: string, purpose: string, options?: RegisterClientOptions) => {
        clients.push({ purpose, options });
        return axios.create({ baseURL: base, timeout: options?.timeoutMs ?? 1000 });
      },
    } as unknown as HttpClientFactory;
    connector = new PlConnector(config, http, clock);
  });

  const current = (krs: string, register: 'P' | 'S') => `/api/krs/OdpisAktualny/${krs}?rejestr=${register}&format=json`;
  const full = (krs: string, register: 'P' | 'S') => `/api/krs/OdpisPelny/${krs}?rejestr=${register}&format=json`;

  it('reads live from the register itself, keyless, with a separate probe client', () => {
    expect(connector.country).toBe('PL');
    expect(connector.source()).toEqual({
      kind: 'native_official',
      official: true,
      description: 'the KRS Open API of the Ministry of Justice',
    });
    expect(connector.unavailableReason()).toBeNull();
    expect(clients).toEqual([
      { purpose: 'API', options: undefined },
      { purpose: 'API', options: { timeoutMs: 500, retries: 0 } },
    ]);
  });

  it('answers a name search honestly: KRS has none (the dataset answers), without a request', async () => {
    const err = await connector.searchByName('ORLEN', 10).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NameSearchUnsupportedError);
    expect(err).toMatchObject({ country: 'PL', code: 'name_search_unsupported' });
    expect((err as Error).message).toMatch(/KRS number only/);
    expect(requests).toEqual([]);
  });

  it('looks an entity of register P up with one request, provenance pointing at the extract', async () => {
    routes[current('0001268296', 'P')] = { status: 200, body: GYM };
    const detail = await connector.lookup('0001268296');
    expect(requests).toEqual([current('0001268296', 'P')]);
    expect(detail).toEqual({
      name: 'GYM CENTER 8.0 SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ',
      registrationNumber: '0001268296',
      country: 'PL',
      status: KRS_REGISTERED,
      statusCategory: 'active',
      legalForm: 'SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ',
      address: 'UL. OSTATNIA 1D, 31-444 KRAKÓW',
      city: 'KRAKÓW',
      incorporationDate: '2026-09-22',
      extra: {
        krsRegister: 'P',
        krsRegisterName: 'REJESTR PRZEDSIĘBIORCÓW',
        registeredInKrsOn: '2026-09-22',
        nip: '9452336418',
        regon: '545772924',
      },
      officers: [
        { name: 'D***** K******** M****', role: 'PREZES ZARZĄDU', kind: 'person', appointedOn: null, resignedOn: null },
      ],
      source: {
        register: NAME,
        url: `${base}/OdpisAktualny/0001268296?rejestr=P&format=json`,
        official: true,
        kind: 'native_official',
        retrievedAt: NOW,
      },
    });
  });

  it('tries register S when P has no such entity (a user does not know which)', async () => {
    routes[current('0000030897', 'S')] = { status: 200, body: WOSP };
    const detail = await connector.lookup('0000030897');
    expect(requests).toEqual([current('0000030897', 'P'), current('0000030897', 'S')]);
    expect(detail).toMatchObject({
      name: 'FUNDACJA WIELKA ORKIESTRA ŚWIĄTECZNEJ POMOCY',
      extra: { krsRegister: 'S' },
      source: { url: `${base}/OdpisAktualny/0000030897?rejestr=S&format=json` },
    });
    expect(detail?.officers).toHaveLength(4);
  });

  it('asks the register an entity was found in first the next time', async () => {
    routes[current('0000030897', 'S')] = { status: 200, body: WOSP };
    await connector.lookup('0000030897');
    await connector.readRecord('0000030897');
    expect(requests).toEqual([current('0000030897', 'P'), current('0000030897', 'S'), current('0000030897', 'S')]);
  });

  it('answers null when neither register has the number (404 with the register body from both)', async () => {
    await expect(connector.lookup('0000000001')).resolves.toBeNull();
    await expect(connector.readRecord('0000000001')).resolves.toBeNull();
    expect(requests).toEqual([
      current('0000000001', 'P'),
      current('0000000001', 'S'),
      current('0000000001', 'P'),
      current('0000000001', 'S'),
    ]);
  });

  it('reads a removed entity (204) from its full extract as struck off', async () => {
    routes[current('0000106150', 'P')] = { status: 204 };
    routes[full('0000106150', 'P')] = { status: 200, body: LOTOS_FULL };
    const detail = await connector.lookup('0000106150');
    expect(requests).toEqual([current('0000106150', 'P'), full('0000106150', 'P')]);
    expect(detail).toMatchObject({
      registrationNumber: '0000106150',
      status: KRS_REMOVED,
      statusCategory: 'struck_off',
      extra: { removedOn: '2022-08-12', removalFinalOn: '2022-09-02' },
      officers: [],
      source: { url: `${base}/OdpisPelny/0000106150?rejestr=P&format=json`, official: true },
    });
  });

  it('does not guess a status when the current extract is empty but the full one shows no removal', async () => {
    routes[current('0001268296', 'P')] = { status: 204 };
    routes[full('0001268296', 'P')] = {
      status: 200,
      body: fixture('krs-odpispelny-P-0001268296-gym-center-sp-zoo.json'),
    };
    await expect(connector.readRecord('0001268296')).resolves.toMatchObject({
      name: 'GYM CENTER 8.0 SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ',
      status: null,
      statusCategory: 'unknown',
      extra: { currentExtractEmpty: true },
    });
  });

  it('reads the record alone for change detection (same parsing and provenance, no officers)', async () => {
    routes[current('0000028860', 'P')] = { status: 200, body: ORLEN };
    const record = await connector.readRecord('0000028860');
    expect(record).not.toHaveProperty('officers');
    expect(record).toMatchObject({ name: 'ORLEN SPÓŁKA AKCYJNA', source: { retrievedAt: NOW } });
  });

  it('sends no NIP or REGON to KRS: lookup answers like a name query, readRecord has nothing', async () => {
    for (const number of ['7740001454', '545772924', '61018820100000']) {
      await expect(connector.lookup(number)).rejects.toBeInstanceOf(NameSearchUnsupportedError);
      await expect(connector.readRecord(number)).resolves.toBeNull();
    }
    expect(requests).toEqual([]);
  });

  it('refuses an answer about another entity or register', async () => {
    routes[current('0000028860', 'P')] = { status: 200, body: GYM };
    await expect(connector.lookup('0000028860')).rejects.toMatchObject({ errorClass: 'invalid_response' });
    routes[current('0000030897', 'P')] = { status: 200, body: WOSP };
    await expect(connector.lookup('0000030897')).rejects.toMatchObject({ errorClass: 'invalid_response' });
  });

  it.each([
    [
      'a 404 without the register body (a wrong address)',
      { status: 404, body: '<html>404</html>', type: 'text/html' },
      'http_4xx',
    ],
    ['429', { status: 429, body: '{"title":"Too Many Requests","status":429}' }, 'rate_limited'],
    ['500', { status: 500, body: '{"title":"Internal Server Error","status":500}' }, 'http_5xx'],
    ['503 with an HTML page', { status: 503, body: '<html>Przerwa</html>', type: 'text/html' }, 'http_5xx'],
    [
      'an HTML page with 200',
      { status: 200, body: '<html><body>Przerwa techniczna</body></html>', type: 'text/html' },
      'invalid_response',
    ],
    ['a truncated extract', { status: 200, body: GYM.slice(0, 1500) }, 'invalid_response'],
    ['an empty 200', { status: 200, body: '' }, 'invalid_response'],
    ['a bulletin instead of an extract', { status: 200, body: '["28860"]' }, 'invalid_response'],
  ])('fails with UpstreamError on %s', async (_what, answer, errorClass) => {
    routes[current('0000028860', 'P')] = answer;
    const err = await connector.lookup('0000028860').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as UpstreamError).errorClass).toBe(errorClass);
  });

  it('fails when a removed entity has no full extract', async () => {
    routes[current('0000106150', 'P')] = { status: 204 };
    await expect(connector.lookup('0000106150')).rejects.toMatchObject({
      errorClass: 'invalid_response',
      httpStatus: 404,
    });
  });

  it('probes one known extract of register P through the probe client', async () => {
    routes[current('0000028860', 'P')] = { status: 200, body: ORLEN };
    await expect(connector.probe()).resolves.toEqual({ httpStatus: 200 });
    expect(requests).toEqual([current('0000028860', 'P')]);
    routes[current('0000028860', 'P')] = { status: 404, body: NOT_FOUND };
    await expect(connector.probe()).rejects.toMatchObject({ errorClass: 'http_4xx', httpStatus: 404 });
    routes[current('0000028860', 'P')] = { status: 503, body: '' };
    await expect(connector.probe()).rejects.toMatchObject({ errorClass: 'http_5xx' });
  });
});
