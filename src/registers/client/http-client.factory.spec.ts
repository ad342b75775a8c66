import type { Readable } from 'node:stream';
import { FakeRegister } from '../../../test/support/fake-register';
import { ManualClock } from '../../platform/clock';
import { AppConfig } from '../../platform/config/app-config';
import { RegistersConfig } from '../register-config';
import { HttpClientFactory } from './http-client.factory';
import { RegisterBreaker } from './register-breaker';

describe('HttpClientFactory for the LEI index', () => {
  const gleif = new FakeRegister();
  let factory: HttpClientFactory;
  let breaker: RegisterBreaker;

  beforeAll(async () => {
    await gleif.start();
  });
  afterAll(async () => {
    factory?.onApplicationShutdown();
    await gleif.stop();
  });
  beforeEach(() => {
    gleif.reset();
    const config = AppConfig.fromEnv({});
    breaker = new RegisterBreaker(config, new ManualClock(new Date('2026-11-22T12:00:00.000Z')));
    factory = new HttpClientFactory(config, RegistersConfig.fromEnv({ REGISTER_LEI_API_URL: gleif.url }), breaker);
  });

  it('reads REGISTER_LEI_API_URL with the service’s User-Agent', async () => {
    gleif.get('/lei-records/X', { body: '{}' });
    const res = await factory.forRegister('LEI', 'API').get('/lei-records/X');
    expect(res.status).toBe(200);
    expect(gleif.requests[0].headers['user-agent']).toMatch(/^RegistryLookup\//);
    expect(() => factory.forRegister('LEI', 'NOPE')).toThrow(/no NOPE endpoint/);
  });

  it('drops U+0000 from what a register answers, in JSON and in text: Postgres could not keep it', async () => {
    gleif.get('/nul', { body: '{"name":"ABG\\u0000 SUNDAL","list":["a\\u0000b",{"x\\u0000":"c"}],"n":1}' });
    gleif.get('/nul.txt', { body: 'OS\u0000LO', headers: { 'Content-Type': 'text/plain' } });
    const client = factory.forRegister('LEI', 'API');
    expect((await client.get('/nul')).data).toEqual({ name: 'ABG SUNDAL', list: ['ab', { x: 'c' }], n: 1 });
    expect((await client.get('/nul.txt', { responseType: 'text' })).data).toBe('OSLO');
    const bytes = (await client.get('/nul.txt', { responseType: 'arraybuffer' })).data as Buffer;
    expect(bytes.includes(0)).toBe(true);
  });

  it('sends nothing for a request its caller gave up on while it waited for its turn', async () => {
    gleif.get('/slow', { body: '{}', delayMs: 300 });
    const client = factory.forRegister('LEI', 'API', { retries: 0 });
    // Two at once fill the index's concurrency; the third waits its turn.
    const first = client.get('/slow');
    const second = client.get('/slow');
    const abort = new AbortController();
    const third = client.get('/slow', { signal: abort.signal }).catch((err: Error) => err);
    setTimeout(() => abort.abort(), 50); // queued by then

    await Promise.all([first, second]);
    expect(await third).toMatchObject({ code: 'ERR_CANCELED' });
    await new Promise((r) => setTimeout(r, 400));
    expect(gleif.requests).toHaveLength(2);
  });

  it('keeps the lines a streamed body received whole when its connection drops before they are read', async () => {
    gleif.get('/stream', {
      raw: (res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write('{"n":1}\n');
        setTimeout(() => res.write('{"n":2}\n'), 10);
        setTimeout(() => res.destroy(), 40);
      },
    });
    const res = await factory
      .forRegister('LEI', 'API', { retries: 0 })
      .get<Readable>('/stream', { responseType: 'stream' });
    // The reader is busy (a transaction) until well after the drop.
    await new Promise((r) => setTimeout(r, 200));
    let body = '';
    const read = async () => {
      for await (const chunk of res.data) body += String(chunk);
    };
    await expect(read()).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(body).toBe('{"n":1}\n{"n":2}\n');
  });

  it('does not count requests its caller aborted as the index being unreachable', async () => {
    gleif.get('/hang', { raw: () => undefined });
    const client = factory.forRegister('LEI', 'API', { retries: 0 });
    for (let i = 0; i < 3; i++) {
      const abort = new AbortController();
      const pending = client.get('/hang', { signal: abort.signal }).catch((err: Error) => err);
      setTimeout(() => abort.abort(), 50);
      expect(await pending).toMatchObject({ code: 'ERR_CANCELED' });
    }
    expect(breaker.openState('LEI')).toBeNull();
  });
});
