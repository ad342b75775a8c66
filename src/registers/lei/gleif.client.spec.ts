import { Logger } from '@nestjs/common';
import axios, { AxiosInstance } from 'axios';
import { FakeRegister, fixture } from '../../../test/support/fake-register';
import { UpstreamError } from '../upstream-error';
import { GLEIF_PROBE_LEI, GleifClient } from './gleif.client';

const SHELL = 'registers/lei/gleif-lei-record-21380068P1DRHMJ8KU70-shell-plc-gb-ra000585.json';
const LAPSED_FUND = 'registers/lei/gleif-lei-record-549300LBI3LRIZ2V8V66-lapsed-fund-pretty.json';
const TWELVE = 'registers/lei/gleif-lei-records-filter-lei-12-hits.json';
const SHELL_LEI = '21380068P1DRHMJ8KU70';
const AMAZON_UK_LEI = '254900LNRYNOQ9YPU758';
const NOW = new Date('2026-11-27T10:00:00.000Z');

/** Expects the promise to reject with an UpstreamError of that class. */
async function expectUpstream(promise: Promise<unknown>, errorClass: string, httpStatus?: number): Promise<void> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UpstreamError);
  expect((err as UpstreamError).errorClass).toBe(errorClass);
  if (httpStatus !== undefined) expect((err as UpstreamError).httpStatus).toBe(httpStatus);
}

describe('GleifClient (against a fake GLEIF on loopback replaying recorded answers)', () => {
  const gleif = new FakeRegister();
  let http: AxiosInstance;
  let client: GleifClient;
  let warn: jest.SpyInstance;

  beforeAll(async () => {
    await gleif.start();
  });
  afterAll(async () => {
    await gleif.stop();
  });
  beforeEach(() => {
    gleif.reset();
    // What the register client factory gives, without politeness or retries: a base URL and a timeout.
    http = axios.create({ baseURL: gleif.url, timeout: 1_000 });
    client = new GleifClient(http, { clock: { now: () => NOW }, webUrl: 'https://search.gleif.example' });
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  describe('getRecord', () => {
    it('reads the recorded Shell record, asking for JSON:API', async () => {
      gleif.get(`/lei-records/${SHELL_LEI}`, { fixture: SHELL });
      const record = await client.getRecord(SHELL_LEI);
      expect(record).toMatchObject({
        lei: SHELL_LEI,
        legalName: { name: 'SHELL PLC', language: 'en' },
        registeredAt: { id: 'RA000585', other: null },
        registeredAs: '04366849',
        source: {
          register: 'GLEIF Global LEI Index',
          url: `https://search.gleif.example/#/record/${SHELL_LEI}`,
          official: true,
          kind: 'lei_index',
          retrievedAt: '2026-11-27T10:00:00.000Z',
        },
      });
      expect(gleif.requests).toHaveLength(1);
      expect(gleif.requests[0].headers.accept).toBe('application/vnd.api+json');
    });

    it('reads an LEI typed in lower case with spaces', async () => {
      gleif.get(`/lei-records/${SHELL_LEI}`, { fixture: SHELL });
      expect((await client.getRecord(` ${SHELL_LEI.toLowerCase()} `))?.lei).toBe(SHELL_LEI);
      expect(gleif.requests.map((r) => r.path)).toEqual([`/lei-records/${SHELL_LEI}`]);
    });

    it('reads the recorded pretty-printed lapsed fund', async () => {
      gleif.get('/lei-records/549300LBI3LRIZ2V8V66', { fixture: LAPSED_FUND });
      expect(await client.getRecord('549300LBI3LRIZ2V8V66')).toMatchObject({
        registrationStatus: 'LAPSED',
        registeredAt: { id: 'RA999999' },
      });
    });

    it('answers null on HTTP 404, whatever its body', async () => {
      gleif.get('/lei-records/5299001ERX0K10IZUL40', {
        status: 404,
        body: '{"errors":[{"status":"404","title":"Not Found"}]}',
      });
      expect(await client.getRecord('5299001ERX0K10IZUL40')).toBeNull();
      gleif.get('/lei-records/5299001ERX0K10IZUL40', { status: 404, body: '<html>Not Found</html>' });
      expect(await client.getRecord('5299001ERX0K10IZUL40')).toBeNull();
    });

    it('answers null without a request for an LEI that is not valid', async () => {
      expect(await client.getRecord('5299001ERX0K10IZUL41')).toBeNull();
      expect(await client.getRecord('../registration-authorities')).toBeNull();
      expect(gleif.requests).toHaveLength(0);
    });

    it('throws rate_limited on 429 and http_5xx on 500', async () => {
      gleif.get(`/lei-records/${SHELL_LEI}`, { status: 429, headers: { 'Retry-After': '60' }, body: '' });
      await expectUpstream(client.getRecord(SHELL_LEI), 'rate_limited', 429);
      gleif.get(`/lei-records/${SHELL_LEI}`, { status: 500, body: '{"errors":[{"status":"500"}]}' });
      await expectUpstream(client.getRecord(SHELL_LEI), 'http_5xx', 500);
    });

    it('carries what a JSON:API error body says into the error message', async () => {
      // A JSON:API error document as the specification shapes it: no real GLEIF one is recorded.
      gleif.get(`/lei-records/${SHELL_LEI}`, {
        status: 503,
        body: '{"errors":[{"status":"503","title":"Service Unavailable","detail":"Golden copy is being published."}]}',
      });
      const err = await client.getRecord(SHELL_LEI).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UpstreamError);
      expect(err).toMatchObject({
        errorClass: 'http_5xx',
        httpStatus: 503,
        message: 'register answered HTTP 503 (Golden copy is being published.)',
      });
    });

    it('throws invalid_response for an HTML page, a truncated body, or another LEI’s record', async () => {
      gleif.get(`/lei-records/${SHELL_LEI}`, {
        body: '<!DOCTYPE html><html><body>Scheduled maintenance</body></html>',
        headers: { 'Content-Type': 'text/html' },
      });
      await expectUpstream(client.getRecord(SHELL_LEI), 'invalid_response');
      // The recorded record cut in the middle (derived in the spec).
      const text = fixture(SHELL);
      gleif.get(`/lei-records/${SHELL_LEI}`, {
        body: text.slice(0, Math.floor(text.length / 2)),
        headers: { 'Content-Type': 'application/vnd.api+json' },
      });
      await expectUpstream(client.getRecord(SHELL_LEI), 'invalid_response');
      gleif.get('/lei-records/5299001ERX0K10IZUL40', { fixture: SHELL });
      await expectUpstream(client.getRecord('5299001ERX0K10IZUL40'), 'invalid_response');
    });

    it('throws timeout when GLEIF answers after the client’s timeout', async () => {
      gleif.get(`/lei-records/${SHELL_LEI}`, { fixture: SHELL, delayMs: 600 });
      const impatient = new GleifClient(axios.create({ baseURL: gleif.url, timeout: 200 }));
      await expectUpstream(impatient.getRecord(SHELL_LEI), 'timeout');
    });
  });

  describe('mapNumbers', () => {
    it('maps Companies House numbers to LEIs in one request (the recorded 12-hit answer)', async () => {
      gleif.get('/lei-records', { fixture: TWELVE });
      const mapped = await client.mapNumbers('GB', ['04366849', '6528297', '09999999'], 2_000);
      expect(mapped).toEqual(
        new Map([
          ['6528297', AMAZON_UK_LEI],
          ['04366849', SHELL_LEI],
        ]),
      );
      expect(gleif.requests).toHaveLength(1);
      const [request] = gleif.requests;
      expect(request.headers.accept).toBe('application/vnd.api+json');
      expect(Object.fromEntries(request.query)).toEqual({
        'filter[entity.registeredAt]': 'RA000585,RA000586,RA000587',
        'filter[entity.registeredAs]': '04366849,06528297,09999999',
        'page[size]': '200',
      });
    });

    it('makes no request when no number is one of the country’s, or the country has no LEI link', async () => {
      expect(await client.mapNumbers('GB', ['Shell plc'], 2_000)).toEqual(new Map());
      expect(await client.mapNumbers('DE', ['HRB 7042'], 2_000)).toEqual(new Map());
      expect(await client.mapNumbers('GB', [], 2_000)).toEqual(new Map());
      expect(gleif.requests).toHaveLength(0);
    });

    it('returns an empty map without a request for more than 100 numbers, and says why', async () => {
      const numbers = Array.from({ length: 101 }, (_, i) => String(i + 1).padStart(8, '0'));
      expect(await client.mapNumbers('GB', numbers, 2_000)).toEqual(new Map());
      expect(gleif.requests).toHaveLength(0);
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/at most 100 numbers, not 101/));
    });

    it.each<[string, Parameters<FakeRegister['get']>[1], RegExp]>([
      ['404', { status: 404, body: '{"errors":[{"status":"404"}]}' }, /http_4xx/],
      ['429', { status: 429, headers: { 'Retry-After': '30' }, body: '' }, /rate_limited/],
      ['500', { status: 500, body: 'Internal Server Error' }, /http_5xx/],
      [
        'an HTML page',
        { body: '<html><body>Maintenance</body></html>', headers: { 'Content-Type': 'text/html' } },
        /invalid_response/,
      ],
      ['a truncated body', { body: fixture(TWELVE).slice(0, 5_000) }, /invalid_response/],
      ['a single record', { fixture: SHELL }, /invalid_response/],
      ['a reset connection', { reset: true }, /connection_reset|network/],
    ])('returns an empty map on %s, never throwing', async (_what, answer, reason) => {
      gleif.get('/lei-records', answer);
      expect(await client.mapNumbers('GB', ['04366849'], 2_000)).toEqual(new Map());
      expect(gleif.requests).toHaveLength(1);
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(reason));
    });

    it('returns an empty map as soon as its timeout passes when GLEIF is slow', async () => {
      gleif.get('/lei-records', { fixture: TWELVE, delayMs: 600 });
      const started = Date.now();
      expect(await client.mapNumbers('GB', ['04366849'], 200)).toEqual(new Map());
      const took = Date.now() - started;
      expect(took).toBeGreaterThanOrEqual(150);
      expect(took).toBeLessThan(550);
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/GLEIF took over 200 ms/));
    });

    it('keeps its deadline even through a client that never answers (a politeness queue, a retry)', async () => {
      const stuck = new GleifClient(axios.create({ adapter: () => new Promise(() => undefined) }));
      const started = Date.now();
      expect(await stuck.mapNumbers('GB', ['04366849'], 100)).toEqual(new Map());
      expect(Date.now() - started).toBeLessThan(1_000);
    });

    it('returns an empty map when nothing listens', async () => {
      const closed = new FakeRegister();
      await closed.start();
      const url = closed.url;
      await closed.stop();
      const offline = new GleifClient(axios.create({ baseURL: url, timeout: 1_000 }));
      expect(await offline.mapNumbers('GB', ['04366849'], 1_000)).toEqual(new Map());
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/connection_refused/));
    });
  });

  describe('lookupNumbers', () => {
    it('says the numbers it did not map are known to have no LEI when GLEIF answered in full', async () => {
      gleif.get('/lei-records', { fixture: TWELVE });
      const found = await client.lookupNumbers('GB', ['04366849', '09999999'], 2_000);
      expect(found).toEqual({ leis: new Map([['04366849', SHELL_LEI]]), known: true });
    });

    it('knows nothing of the others from an answer cut by paging, a failure or a timeout', async () => {
      const page = JSON.parse(fixture(TWELVE));
      page.meta.pagination.total = 250; // a first page of more
      gleif.get('/lei-records', { body: JSON.stringify(page), headers: { 'Content-Type': 'application/json' } });
      expect(await client.lookupNumbers('GB', ['04366849'], 2_000)).toEqual({ leis: new Map(), known: false });
      gleif.get('/lei-records', { status: 503, body: '' });
      expect(await client.lookupNumbers('GB', ['04366849'], 2_000)).toEqual({ leis: new Map(), known: false });
      gleif.get('/lei-records', { fixture: TWELVE, delayMs: 400 });
      expect(await client.lookupNumbers('GB', ['04366849'], 100)).toEqual({ leis: new Map(), known: false });
    });

    it('knows without a request that numbers of no register GLEIF links have none', async () => {
      expect(await client.lookupNumbers('GB', ['Shell plc'], 2_000)).toEqual({ leis: new Map(), known: true });
      expect(gleif.requests).toHaveLength(0);
    });

    it('goes through the lookup client when one is given', async () => {
      gleif.get('/lei-records', { fixture: TWELVE });
      const split = new GleifClient(axios.create({ baseURL: 'http://127.0.0.1:9' }), {
        lookupHttp: axios.create({ baseURL: gleif.url }),
      });
      expect((await split.lookupNumbers('GB', ['04366849'], 2_000)).leis.get('04366849')).toBe(SHELL_LEI);
    });
  });

  describe('probe', () => {
    it('reads the probe record and answers its HTTP status', async () => {
      gleif.get(`/lei-records/${GLEIF_PROBE_LEI}`, { fixture: SHELL });
      expect(await client.probe()).toEqual({ httpStatus: 200 });
    });

    it('goes through the probe client when one is given', async () => {
      gleif.get(`/lei-records/${GLEIF_PROBE_LEI}`, { fixture: SHELL, delayMs: 250 });
      const probing = new GleifClient(axios.create({ baseURL: 'http://127.0.0.1:9' }), {
        probeHttp: axios.create({ baseURL: gleif.url, timeout: 100 }),
      });
      await expectUpstream(probing.probe(), 'timeout');
      expect(gleif.requests).toHaveLength(1);
    });

    it.each<[string, Parameters<FakeRegister['get']>[1], string]>([
      ['404', { status: 404, body: '' }, 'http_4xx'],
      ['503', { status: 503, body: '' }, 'http_5xx'],
      ['an HTML page', { body: '<html></html>', headers: { 'Content-Type': 'text/html' } }, 'invalid_response'],
      ['another record', { fixture: LAPSED_FUND }, 'invalid_response'],
    ])('fails on %s', async (_what, answer, errorClass) => {
      gleif.get(`/lei-records/${GLEIF_PROBE_LEI}`, answer);
      await expectUpstream(client.probe(), errorClass);
    });
  });
});
