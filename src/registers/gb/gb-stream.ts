import type { AxiosInstance } from 'axios';
import type { Readable } from 'node:stream';
import type { ChangeSourceDeps, ChangeStream, FeedEntry } from '../change-detection';
import { UpstreamError } from '../upstream-error';
import { DeferredLogger } from '../../platform/logging/deferred-logger';
import { chContext, GbStreamName, parseStreamLine, StreamContext } from './gb-stream-events';

/** Companies House sends a heartbeat (a blank line) about every 30 s: silence past this is a dead connection. */
export const GB_STREAM_IDLE_MS = 90_000;

/** Longest line read, in characters: an event is a few kB. A longer one is dropped as it comes, never held whole. */
export const GB_STREAM_MAX_LINE = 1 << 20;

/**
 * One stream of the Companies House streaming API (`companies`, `officers`, `filings`): one
 * JSON event per line, in chunks that do not follow the lines (blank lines are heartbeats).
 * Resumed with `?timepoint=<last stored>`: whether the register treats it as inclusive is
 * unconfirmed, so the stored one is asked for again and dropped as already seen. A line cut
 * short by a drop is never read (the rest of it never comes); a line that cannot be read, or
 * is longer than any event, is skipped and said once per connection in the log. The bytes are
 * decoded as a stream: a character split between two chunks stays one character.
 */
export class GbStream implements ChangeStream {
  readonly url: string;
  private readonly logger = new DeferredLogger(GbStream.name);
  private readonly client: AxiosInstance;
  private readonly key?: string;
  private readonly context: StreamContext;

  constructor(
    { settings, http, clock }: ChangeSourceDeps,
    private readonly stream: GbStreamName = 'companies',
    private readonly idleMs = GB_STREAM_IDLE_MS,
  ) {
    this.client = http.forRegister('GB', 'STREAM', { timeoutMs: idleMs, retries: 0 });
    this.key = settings.credentials.STREAM_KEY;
    this.url = `${settings.urls.STREAM}/${stream}`;
    this.context = chContext(settings.urls.WEB, clock);
  }

  async run(
    cursor: string | null,
    onEntry: (entry: FeedEntry | null, cursor: string) => Promise<void>,
    signal: AbortSignal,
    onConnected?: () => void,
  ): Promise<void> {
    if (!this.key)
      throw new UpstreamError('unauthorized', 'No Companies House stream key (REGISTER_GB_STREAM_KEY) is configured.');
    const after = cursor === null ? null : Number(cursor);
    let res;
    try {
      res = await this.client.get<Readable>(`/${this.stream}`, {
        params: after === null ? {} : { timepoint: after },
        auth: { username: this.key, password: '' },
        responseType: 'stream',
        signal,
        validateStatus: (s) => s === 200,
      });
    } catch (err) {
      if (signal.aborted) return;
      throw UpstreamError.from(err);
    }
    onConnected?.();
    const body = res.data;
    let idle: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(idle);
      idle = setTimeout(
        () => body.destroy(new UpstreamError('timeout', `no data nor heartbeat from the stream for ${this.idleMs} ms`)),
        this.idleMs,
      );
    };
    const abort = () => body.destroy();
    signal.addEventListener('abort', abort, { once: true });
    arm();
    const said = new Set<string>();
    const skip = (what: string) => {
      if (!said.has(what))
        this.logger.warn(`GB ${this.stream} stream: skipped ${what}; the position stays where it was`);
      said.add(what);
    };
    body.setEncoding('utf8');
    let buffered = '';
    /** In the middle of a line too long to read: dropped up to its end. */
    let dropping = false;
    try {
      for await (const chunk of body) {
        arm();
        buffered += chunk as string;
        let newline: number;
        while ((newline = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, newline).trim();
          buffered = buffered.slice(newline + 1);
          if (dropping) {
            dropping = false;
            continue;
          }
          if (!line) continue; // heartbeat
          const parsed = parseStreamLine(this.stream, line, this.context);
          if (parsed.skipped !== undefined) {
            skip(parsed.skipped);
            continue;
          }
          if (after !== null && parsed.timepoint <= after) continue;
          await onEntry(parsed.entry, String(parsed.timepoint));
        }
        if (buffered.length > GB_STREAM_MAX_LINE) {
          skip(`a line longer than ${GB_STREAM_MAX_LINE} characters`);
          dropping = true;
          buffered = '';
        }
      }
    } catch (err) {
      if (signal.aborted) return;
      throw err instanceof UpstreamError ? err : UpstreamError.from(err);
    } finally {
      clearTimeout(idle);
      signal.removeEventListener('abort', abort);
    }
    if (!signal.aborted)
      throw new UpstreamError(
        'connection_reset',
        dropping || buffered.trim()
          ? `the Companies House ${this.stream} stream ended in the middle of a line`
          : `the Companies House ${this.stream} stream ended`,
      );
  }
}
