import type { AxiosInstance } from 'axios';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { Clock } from '../../platform/clock';
import type { ChangeSourceDeps, ChangeStream, FeedEntry } from '../change-detection';
import type { CompanyRecord } from '../connector';
import { GB_DEFINITION } from './gb.definition';
import { UpstreamError } from '../upstream-error';
import { parseCompanyProfile } from './ch-api-parsers';

/** Companies House sends a heartbeat (a blank line) about every 30 s: silence past this is a dead connection. */
export const GB_STREAM_IDLE_MS = 90_000;

const event = z.object({
  resource_kind: z.string(),
  data: z.unknown(),
  event: z.object({ timepoint: z.number().int(), type: z.string().nullish() }),
});

/**
 * The Companies House streaming API, companies stream: one JSON event per line (blank lines
 * are heartbeats), each a whole company profile, the same document `/company/{n}` answers.
 * Resumed with `?timepoint=<last stored>`: whether the register treats it as inclusive is
 * unconfirmed, so the stored one is asked for again and dropped as already seen.
 */
export class GbCompaniesStream implements ChangeStream {
  readonly url: string;
  private readonly client: AxiosInstance;
  private readonly key?: string;
  private readonly webUrl: string;
  private readonly registerName = GB_DEFINITION.name;
  private readonly clock: Clock;

  constructor(
    { settings, http, clock }: ChangeSourceDeps,
    private readonly idleMs = GB_STREAM_IDLE_MS,
  ) {
    this.client = http.forRegister('GB', 'STREAM', { timeoutMs: idleMs, retries: 0 });
    this.key = settings.credentials.STREAM_KEY;
    this.url = `${settings.urls.STREAM}/companies`;
    this.webUrl = settings.urls.WEB;
    this.clock = clock;
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
      res = await this.client.get<Readable>('/companies', {
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
    let buffered = '';
    try {
      for await (const chunk of body) {
        arm();
        buffered += (chunk as Buffer).toString('utf8');
        let newline: number;
        while ((newline = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, newline).trim();
          buffered = buffered.slice(newline + 1);
          if (!line) continue; // heartbeat
          const parsed = this.parseLine(line);
          if (after !== null && parsed.timepoint <= after) continue;
          await onEntry(parsed.entry, String(parsed.timepoint));
        }
      }
    } catch (err) {
      if (signal.aborted) return;
      throw err instanceof UpstreamError ? err : UpstreamError.from(err);
    } finally {
      clearTimeout(idle);
      signal.removeEventListener('abort', abort);
    }
    if (!signal.aborted) throw new UpstreamError('connection_reset', 'the Companies House stream ended');
  }

  private parseLine(line: string): { timepoint: number; entry: FeedEntry | null } {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw UpstreamError.invalidResponse('the Companies House stream sent a line that is not JSON');
    }
    const parsed = event.safeParse(json);
    if (!parsed.success)
      throw UpstreamError.invalidResponse('the Companies House stream sent an event without timepoint');
    const { timepoint, type } = parsed.data.event;
    // Only company profiles; a "deleted" profile carries no record to compare.
    if (parsed.data.resource_kind !== 'company-profile' || type === 'deleted') return { timepoint, entry: null };
    const record = parseCompanyProfile(parsed.data.data);
    const withSource: CompanyRecord = {
      ...record,
      source: {
        register: this.registerName,
        url: `${this.webUrl}/company/${record.registrationNumber}`,
        official: true,
        kind: 'native_official',
        retrievedAt: this.clock.now().toISOString(),
      },
    };
    return { timepoint, entry: { registrationNumber: record.registrationNumber, record: withSource } };
  }
}
