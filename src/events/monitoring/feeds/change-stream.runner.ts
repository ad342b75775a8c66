import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Clock } from '../../../platform/clock';
import { isDatabaseUnavailable } from '../../../platform/database/database-errors';
import type { ChangeStream, FeedEntry } from '../../../registers/change-detection';
import { COUNTRY_CODES, CountryCode } from '../../../registers/registers';
import { UpstreamError } from '../../../registers/upstream-error';
import { RegisterStatusService } from '../../../status/register-status.service';
import { DetectionEventWriter, EmittedEvent } from '../events/detection-event-writer';
import { SnapshotStore } from '../snapshots/snapshot-store';
import { ChangeSources } from './change-sources.service';
import { FeedCursorStore } from './feed-cursor-store';
import { FeedEntriesService } from './feed-entries.service';
import type { FeedSource } from './feed-names';

const STREAM_LEASE_MS = 30_000;
const RENEW_EVERY_MS = 10_000;

/** Another worker holds the stream now. */
class LostStreamError extends Error {}

/**
 * Follows the change streams of every register in `stream` mode (GB with a stream key: its
 * companies, officers and filings streams), in the worker: one connection per stream across
 * all workers (the holder of its cursor's lease, renewed while connected; another worker takes
 * over when it lapses), each entry applied with its position in one transaction, resumed from
 * the stored position after a drop or a restart, reconnected with exponential backoff. A
 * position the register no longer accepts (HTTP 416: events were missed) restarts that stream
 * from now and asks for a re-read of every watched company of the register (profile and
 * officers, and after a gap in the filings stream the filings of the gap from each company's
 * filing history), whose changes are then sent as events.
 */
@Injectable()
export class ChangeStreamRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ChangeStreamRunner.name);
  private readonly owner = randomBytes(9).toString('base64url');
  private readonly controller = new AbortController();
  private readonly loops: Promise<void>[] = [];
  /** Reconnection backoff (tests shorten it). */
  backoff = { initialMs: 1_000, maxMs: 60_000 };
  /** Waiting time between two attempts to take a stream another worker holds, or a register that is not readable. */
  idleRetryMs = 5_000;

  constructor(
    private readonly dataSource: DataSource,
    private readonly sources: ChangeSources,
    private readonly cursors: FeedCursorStore,
    private readonly snapshots: SnapshotStore,
    private readonly entries: FeedEntriesService,
    private readonly statuses: RegisterStatusService,
    private readonly sink: DetectionEventWriter,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    for (const country of COUNTRY_CODES)
      for (const { source, stream } of this.sources.allStreams(country))
        this.loops.push(this.follow(country, source, stream));
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.controller.abort();
    await Promise.all(this.loops);
  }

  private async follow(country: CountryCode, source: FeedSource, stream: ChangeStream): Promise<void> {
    const name = `${country} ${source === 'changes' ? 'change' : source} stream`;
    let delay = this.backoff.initialMs;
    while (!this.controller.signal.aborted) {
      try {
        if (
          !(await this.statuses.current(country)).readable ||
          !(await this.cursors.take(country, this.owner, STREAM_LEASE_MS, source))
        ) {
          await this.sleep(this.idleRetryMs);
          continue;
        }
        const connected = await this.connectOnce(country, source, stream);
        if (connected) delay = this.backoff.initialMs;
      } catch (err) {
        const e = UpstreamError.from(err);
        if (e.httpStatus === 416) {
          const watched = await this.restartFromNow(country, source).catch(() => null);
          const filings =
            source !== 'filings'
              ? ''
              : this.sources.filingHistory(country)
                ? ' and their filings since the stream was last read'
                : ' (their filings of the gap are not recovered: reading a filing history needs the register API key)';
          this.logger.warn(
            `${name}: the stored position is too old (HTTP 416), so events were missed; restarting from now and re-reading the ${watched ?? 'watched'} watched companies of ${country}${filings}`,
          );
        } else this.logger.warn(`${name}: ${e.errorClass} (${e.message}); reconnecting in ${delay} ms`);
      }
      if (this.controller.signal.aborted) break;
      await this.sleep(delay);
      delay = Math.min(delay * 2, this.backoff.maxMs);
    }
    await this.cursors.release(country, this.owner, source).catch(() => undefined);
  }

  /** Applies one entry (none: only moves the position) and stores the position after it, in one transaction. */
  private apply(
    country: CountryCode,
    source: FeedSource,
    entry: FeedEntry | null,
    cursor: string,
  ): Promise<EmittedEvent[]> {
    return this.dataSource.transaction(async (m) => {
      const applied = entry ? (await this.entries.apply(m, country, [entry], this.clock.now())).emitted : [];
      // Lost the stream to another worker: roll back, the other one applies it.
      if (!(await this.cursors.store(m, country, this.owner, cursor, this.clock.now(), STREAM_LEASE_MS, source)))
        throw new LostStreamError(`lost the ${country} ${source} stream`);
      return applied;
    });
  }

  /** One connection, until it drops (throws) or the process stops; true if it was accepted. */
  private async connectOnce(country: CountryCode, source: FeedSource, stream: ChangeStream): Promise<boolean> {
    const held = await this.cursors.get(country, source);
    const connection = new AbortController();
    const stop = () => connection.abort();
    this.controller.signal.addEventListener('abort', stop, { once: true });
    let connected = false;
    const renew = setInterval(() => {
      void this.cursors
        .renew(country, this.owner, connected ? this.clock.now() : null, STREAM_LEASE_MS, source)
        .then((still) => {
          if (!still) connection.abort();
        })
        .catch(() => connection.abort());
    }, RENEW_EVERY_MS);
    try {
      await stream.run(
        held?.cursor ?? null,
        async (entry, cursor) => {
          let emitted: EmittedEvent[];
          try {
            emitted = await this.apply(country, source, entry, cursor);
          } catch (err) {
            // A database that cannot answer, or a lease lost, ends the connection: the stream is
            // read again from the stored position. Anything else is this entry's own, and thrown
            // it would be read again after every reconnection: the stream would stall on it.
            if (!entry || isDatabaseUnavailable(err) || err instanceof LostStreamError) throw err;
            this.logger.error(
              { err },
              `${country} ${source} stream: the entry of ${entry.registrationNumber} could not be applied, passed over: ${(err as Error).message}`,
            );
            emitted = await this.apply(country, source, null, cursor);
          }
          await this.sink.wake(emitted);
        },
        connection.signal,
        () => {
          connected = true;
          // A write that fails here is retried by the renewal interval, which gives the stream up if the lease is lost.
          void this.cursors
            .renew(country, this.owner, this.clock.now(), STREAM_LEASE_MS, source)
            .catch(() => undefined);
        },
      );
      return connected;
    } finally {
      clearInterval(renew);
      this.controller.signal.removeEventListener('abort', stop);
    }
  }

  /**
   * Forgets the stream's position and asks for a re-read of the register's watched companies;
   * how many. After a gap in the filings stream, the re-read also reads each company's filings
   * since the stream was last known to be read (where the register lets us read them).
   */
  private async restartFromNow(country: CountryCode, source: FeedSource): Promise<number> {
    const held =
      source === 'filings' && this.sources.filingHistory(country) ? await this.cursors.get(country, source) : null;
    return this.dataSource.transaction(async (m) => {
      await this.cursors.reset(m, country, this.owner, source);
      const now = this.clock.now();
      if (!held) return this.snapshots.requestReadOfAll(m, country, now);
      return this.snapshots.requestFilingsRecovery(m, country, held.caughtUpAt ?? held.updatedAt, now);
    });
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.controller.signal.removeEventListener('abort', wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.controller.signal.addEventListener('abort', wake, { once: true });
    });
  }
}
