import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { rootLogger } from './logging.module';
import { requestLogging } from './request-logging';

/** The lines a root logger writes, as the process would write them to stdout. */
function capturingRoot(): { root: ReturnType<typeof rootLogger>; lines: string[] } {
  const lines: string[] = [];
  return {
    root: rootLogger({ logLevel: 'info', role: 'all' }, { write: (line: string) => void lines.push(line) }),
    lines,
  };
}

function request(
  url: string,
  headers: Record<string, string> = {},
): { req: IncomingMessage; res: ServerResponse & EventEmitter } {
  const res = Object.assign(new EventEmitter(), { statusCode: 200, setHeader: jest.fn() });
  return {
    req: { method: 'GET', url, headers } as unknown as IncomingMessage,
    res: res as unknown as ServerResponse & EventEmitter,
  };
}

describe('the request line', () => {
  it('says the request id, method, path without its query, status and time', () => {
    const { root, lines } = capturingRoot();
    const { req, res } = request('/api/public/v1/registers?status=live', { 'x-request-id': 'trace-1' });
    requestLogging(root)(req, res, () => undefined);
    res.statusCode = 404;
    res.emit('close');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toEqual({
      level: 30,
      time: expect.any(Number),
      service: 'registry-lookup',
      role: 'all',
      req: { id: 'trace-1', method: 'GET', path: '/api/public/v1/registers' },
      res: { statusCode: 404 },
      responseTime: expect.any(Number),
      msg: 'request completed',
    });
  });

  it('stays one valid JSON line whatever the path holds', () => {
    const { root, lines } = capturingRoot();
    const { req, res } = request('/api/public/v1/"quoted"\\/\u00e9\u2028?x');
    requestLogging(root)(req, res, () => undefined);
    res.emit('close');
    expect(lines).toHaveLength(1);
    expect(lines[0].endsWith('}\n')).toBe(true);
    expect(lines[0].slice(0, -1)).not.toContain('\n');
    expect(JSON.parse(lines[0]).req.path).toBe('/api/public/v1/"quoted"\\/\u00e9\u2028');
  });

  it('is not written below the info level; a 500 is an error, a register or database that did not answer a warning', () => {
    const lines: string[] = [];
    const root = rootLogger({ logLevel: 'warn', role: 'api' }, { write: (line: string) => void lines.push(line) });
    const ok = request('/api/public/v1/registers');
    requestLogging(root)(ok.req, ok.res, () => undefined);
    ok.res.emit('close');
    expect(lines).toHaveLength(0);
    for (const statusCode of [500, 502, 503, 504]) {
      const failed = request('/api/public/v1/search');
      requestLogging(root)(failed.req, failed.res, () => undefined);
      failed.res.statusCode = statusCode;
      failed.res.emit('close');
    }
    const logged = lines.map((l) => JSON.parse(l));
    expect(logged.map((l) => [l.level, l.res.statusCode, l.msg, l.err?.message ?? null])).toEqual([
      [50, 500, 'request errored', 'failed with status code 500'],
      [40, 502, 'request answered unavailable', null],
      [40, 503, 'request answered unavailable', null],
      [40, 504, 'request answered unavailable', null],
    ]);
    expect(logged.every((l) => l.role === 'api')).toBe(true);
  });

  it('hands each request’s status and duration to the recorder, /health/ included though not logged', () => {
    const { root, lines } = capturingRoot();
    const recorded: [string | undefined, number, number][] = [];
    const durations = {
      record: (req: IncomingMessage, status: number, s: number) => void recorded.push([req.url, status, s]),
    };
    const health = request('/health/ready');
    const api = request('/api/public/v1/registers');
    requestLogging(root, durations)(health.req, health.res, () => undefined);
    requestLogging(root, durations)(api.req, api.res, () => undefined);
    api.res.statusCode = 304;
    api.res.emit('close');
    health.res.emit('close');
    expect(recorded.map(([url, status]) => [url, status])).toEqual([
      ['/api/public/v1/registers', 304],
      ['/health/ready', 200],
    ]);
    for (const [, , seconds] of recorded) expect(seconds).toBeGreaterThanOrEqual(0);
    expect(recorded.every(([, , s]) => s < 1)).toBe(true);
    expect(lines.map((l) => JSON.parse(l).req.path)).toEqual(['/api/public/v1/registers']);
  });
});
