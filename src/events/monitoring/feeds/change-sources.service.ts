import { Injectable } from '@nestjs/common';
import type {
  ChangeDetectionMode,
  ChangeFeed,
  ChangeSourceDeps,
  ChangeStream,
  ExtraSource,
  FilingHistory,
  OfficerDetection,
} from '../../../registers/change-detection';
import { ConnectorRegistry } from '../../../registers/connector-registry';
import { RegistersConfig } from '../../../registers/register-config';
import { CountryCode, REGISTERS } from '../../../registers/registers';
import type { FeedSource } from './feed-names';

/** Each register's change feed or stream under the configuration, built once from its folder's plan. */
@Injectable()
export class ChangeSources {
  private readonly feeds = new Map<CountryCode, ChangeFeed>();
  private readonly streams = new Map<CountryCode, ChangeStream>();
  private readonly extras = new Map<string, ChangeFeed | ChangeStream>();
  private readonly histories = new Map<CountryCode, FilingHistory | null>();

  constructor(
    private readonly registers: RegistersConfig,
    private readonly connectors: ConnectorRegistry,
  ) {}

  mode(country: CountryCode): ChangeDetectionMode {
    return REGISTERS[country].changeDetection.mode(this.registers.of(country));
  }

  feed(country: CountryCode): ChangeFeed {
    let feed = this.feeds.get(country);
    if (!feed) {
      const create = REGISTERS[country].changeDetection.createFeed;
      if (!create) throw new Error(`register ${country} has no change feed`);
      feed = create(this.deps(country));
      this.feeds.set(country, feed);
    }
    return feed;
  }

  stream(country: CountryCode): ChangeStream {
    let stream = this.streams.get(country);
    if (!stream) {
      const create = REGISTERS[country].changeDetection.createStream;
      if (!create) throw new Error(`register ${country} has no change stream`);
      stream = create(this.deps(country));
      this.streams.set(country, stream);
    }
    return stream;
  }

  /** Every stream of a register in `stream` mode (its main one first), each with its own cursor. */
  allStreams(country: CountryCode): Array<{ source: FeedSource; stream: ChangeStream }> {
    if (this.mode(country) !== 'stream') return [];
    const extra = REGISTERS[country].changeDetection.extraStreams ?? {};
    return [
      { source: 'changes', stream: this.stream(country) },
      ...(Object.keys(extra) as ExtraSource[]).map((source) => ({
        source,
        stream: this.extra(country, source, extra[source]!) as ChangeStream,
      })),
    ];
  }

  /** The feeds polled beside the main one of a register in `feed` mode, each with its own cursor. */
  extraFeeds(country: CountryCode): Array<{ source: FeedSource; feed: ChangeFeed }> {
    if (this.mode(country) !== 'feed') return [];
    const extra = REGISTERS[country].changeDetection.extraFeeds ?? {};
    return (Object.keys(extra) as ExtraSource[]).map((source) => ({
      source,
      feed: this.extra(country, source, extra[source]!) as ChangeFeed,
    }));
  }

  /** How the register's officer changes are found under the configuration (null: not watched). */
  officers(country: CountryCode): OfficerDetection {
    return REGISTERS[country].changeDetection.officers?.(this.registers.of(country)) ?? null;
  }

  /** Whether the register's filings are watched under the configuration. */
  filings(country: CountryCode): boolean {
    return REGISTERS[country].changeDetection.filings?.(this.registers.of(country)) ?? false;
  }

  /** Where a company's filings are read to recover a gap in its register's filings stream; null: nowhere. */
  filingHistory(country: CountryCode): FilingHistory | null {
    if (!this.histories.has(country))
      this.histories.set(country, REGISTERS[country].changeDetection.filingHistory?.(this.deps(country)) ?? null);
    return this.histories.get(country) ?? null;
  }

  private extra(
    country: CountryCode,
    source: ExtraSource,
    create: (deps: ChangeSourceDeps) => ChangeFeed | ChangeStream,
  ): ChangeFeed | ChangeStream {
    const key = `${country}:${source}`;
    let made = this.extras.get(key);
    if (!made) {
      made = create(this.deps(country));
      this.extras.set(key, made);
    }
    return made;
  }

  /**
   * Feed and stream registers whose feed misses some changes: a company last read before this
   * moment is re-read at its scheduled check rather than confirmed. Null where the feed is
   * trusted alone (and where every check reads anyway).
   */
  rereadBefore(country: CountryCode, now: Date): Date | null {
    const seconds = REGISTERS[country].changeDetection.rereadAfterSeconds;
    return seconds && this.mode(country) !== 'schedule' ? new Date(now.getTime() - seconds * 1000) : null;
  }

  /** The address of the feed or stream (provenance of a check confirmed by it). */
  url(country: CountryCode): string {
    return this.mode(country) === 'stream' ? this.stream(country).url : this.feed(country).url;
  }

  private deps(country: CountryCode): ChangeSourceDeps {
    return { ...this.connectors.depsOf(country), connector: this.connectors.get(country) };
  }
}
