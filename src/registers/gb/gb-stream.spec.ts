import { Logger } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { loadConfig } from '../../app/config';
import { ManualClock } from '../../platform/clock';
import { FakeRegister, fixture } from '../../../test/support/fake-register';
import { HttpClientFactory } from '../client/http-client.factory';
import type { FeedEntry } from '../change-detection';
import { GB_STREAM_MAX_LINE, GbStream } from './gb-stream';
import { GbConnector } from './gb.connector';

const EVENT = 'registers/gb/ch-streaming-companies-event-05954546.json';

/** The recorded companies event as one line, renamed, at another timepoint. */
function eventLine(name: string, timepoint: number): string {
  const event = JSON.parse(fixture(EVENT));
  event.data.company_name = name;
  event.event.timepoint = timepoint;
  return `${JSON.stringify(event)}\n`;
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 30));

describe('the Companies House stream, as its bytes arrive', () => {
  const fake = new FakeRegister();
  let http: HttpClientFactory;
  let stream: GbStream;
  /** What the register writes on the connection before it closes it. */
  let script: (res: ServerResponse) => Promise<void>;

  beforeAll(() => fake.start());
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    fake.get('/companies', {
      raw: (res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        void script(res).then(() => res.end());
      },
    });
    const { app: config, registers } = loadConfig({ REGISTER_GB_STREAM_URL: fake.url, REGISTER_GB_STREAM_KEY: 'k' });
    http = new HttpClientFactory(config, registers);
    const settings = registers.of('GB');
    const clock = new ManualClock(new Date('2026-11-30T10:00:00Z'));
    const deps = { settings, config, http, clock };
    stream = new GbStream({ ...deps, connector: new GbConnector(deps) }, 'companies', 5_000);
  });
  afterEach(() => {
    jest.restoreAllMocks();
    http.onApplicationShutdown();
  });

  /** The entries read until the register closes the connection, and how the run ended. */
  async function read(): Promise<{ entries: Array<[FeedEntry | null, string]>; ended: string }> {
    const entries: Array<[FeedEntry | null, string]> = [];
    const ended = await stream
      .run(null, async (entry, cursor) => void entries.push([entry, cursor]), new AbortController().signal)
      .then(
        () => 'returned',
        (err: Error) => err.message,
      );
    return { entries, ended };
  }

  it('keeps a character whose bytes come in two chunks one character', async () => {
    const bytes = Buffer.from(eventLine('CAFÉ ÆBLE LTD', 70000001));
    // Inside É (two bytes in UTF-8): the chunks break a character, not only a line.
    const cut = bytes.indexOf(Buffer.from('É')) + 1;
    script = async (res) => {
      res.write(bytes.subarray(0, cut));
      await pause();
      res.write(bytes.subarray(cut));
    };
    const { entries, ended } = await read();
    expect(entries.map(([entry, cursor]) => [entry?.record?.name, cursor])).toEqual([['CAFÉ ÆBLE LTD', '70000001']]);
    expect(ended).toBe('the Companies House companies stream ended');
  });

  it('drops a line longer than any event as it comes, says so once, and reads the lines after it', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const piece = 'x'.repeat(64 * 1024);
    script = async (res) => {
      // Three over-long lines (more than the longest line of characters each, no newline until
      // its end), each followed by an event.
      for (const timepoint of [70000002, 70000003, 70000004]) {
        for (let sent = 0; sent <= GB_STREAM_MAX_LINE; sent += piece.length) {
          res.write(piece);
          if (sent % (8 * piece.length) === 0) await pause();
        }
        res.write('\n');
        res.write(eventLine(`READ AFTER ${timepoint} LTD`, timepoint));
      }
    };
    const { entries, ended } = await read();
    expect(entries.map(([entry, cursor]) => [entry?.record?.name, cursor])).toEqual([
      ['READ AFTER 70000002 LTD', '70000002'],
      ['READ AFTER 70000003 LTD', '70000003'],
      ['READ AFTER 70000004 LTD', '70000004'],
    ]);
    expect(ended).toBe('the Companies House companies stream ended');
    const said = warn.mock.calls.map(([message]) => String(message)).filter((m) => m.includes('longer than'));
    expect(said).toEqual([
      `GB companies stream: skipped a line longer than ${GB_STREAM_MAX_LINE} characters; the position stays where it was`,
    ]);
  });

  it('says a stream that ends inside an over-long line ended in the middle of a line', async () => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    script = async (res) => {
      res.write(eventLine('FIRST LTD', 70000005));
      res.write('y'.repeat(GB_STREAM_MAX_LINE + 1));
    };
    const { entries, ended } = await read();
    expect(entries.map(([, cursor]) => cursor)).toEqual(['70000005']);
    expect(ended).toBe('the Companies House companies stream ended in the middle of a line');
  });
});
