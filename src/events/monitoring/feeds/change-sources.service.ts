import { Injectable } from '@nestjs/common';
import type {
  ChangeDetectionMode,
  ChangeFeed,
  ChangeSourceDeps,
  ChangeStream,
} from '../../../registers/change-detection';
import { ConnectorRegistry } from '../../../registers/connector-registry';
import { RegistersConfig } from '../../../registers/register-config';
import { CountryCode, REGISTERS } from '../../../registers/registers';

/** Each register's change feed or stream under the configuration, built once from its folder's plan. */
@Injectable()
export class ChangeSources {
  private readonly feeds = new Map<CountryCode, ChangeFeed>();
  private readonly streams = new Map<CountryCode, ChangeStream>();

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
