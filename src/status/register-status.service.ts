import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../platform/clock';
import { ConnectorRegistry } from '../registers/connector-registry';
import { CountryCode, REGISTER_TABLE } from '../registers/registers';
import { LEI_INDEX, SOURCE_IDS, type SourceId } from '../registers/source-id';
import { RegisterStatus } from './register-status';
import { RegisterStateEntity } from './register-state.entity';
import { RegisterStateStore } from './register-state-store';
import { RegisterStatusTransitionEntity } from './register-status-transition.entity';
import { StreakState } from './status-rules';

export interface CurrentStatus {
  status: RegisterStatus;
  reason: string | null;
  /** When the status last changed; null before the first probe. */
  changedAt: Date | null;
  /**
   * Whether reads can be trusted now: `live`, or — for a register read through a mirror, which
   * is never live — its last probes succeeded. Change detection reads only such registers.
   */
  readable: boolean;
}

/** A register stopped being readable (left `live`, or its mirror stopped answering). */
export interface RegisterOutage {
  country: CountryCode;
  status: RegisterStatus;
  reason: string | null;
  since: Date;
}

/** A register readable again after an outage: from `since` (when it stopped being readable) to `until`. */
export interface RegisterRecovery {
  country: CountryCode;
  status: RegisterStatus;
  since: Date;
  until: Date;
}

/**
 * Called in the transaction that records the transition (the outbox pattern); what it returns
 * is run once that transaction has committed.
 */
export type RegisterOutageListener = (manager: EntityManager, outage: RegisterOutage) => Promise<AfterCommit | void>;
export type RegisterRecoveryListener = (
  manager: EntityManager,
  recovery: RegisterRecovery,
) => Promise<AfterCommit | void>;
type AfterCommit = () => Promise<void>;

const CACHE_MS = 1_000;

/**
 * The current status of every register, and of the LEI index (`'LEI'`, kept apart from every
 * register: its outages never touch a register's status and raise no register event):
 * configuration first (paused), then the state the probes left in the database. Every change
 * is written with a transition row.
 */
@Injectable()
export class RegisterStatusService {
  private cache?: { at: number; states: Map<string, RegisterStateEntity> };
  /** What `all()` last made, and of which states. */
  private derived?: { states: Map<string, RegisterStateEntity>; all: ReadonlyMap<SourceId, CurrentStatus> };
  private readonly outageListeners: RegisterOutageListener[] = [];
  private readonly recoveryListeners: RegisterRecoveryListener[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: RegisterStateStore,
    private readonly connectors: ConnectorRegistry,
    private readonly clock: Clock,
  ) {}

  /** Registers what must happen, in the same transaction, when a register stops being readable. */
  onOutage(listener: RegisterOutageListener): void {
    this.outageListeners.push(listener);
  }

  /**
   * Registers what must happen, in the same transaction, when a register that stopped being
   * readable is readable again — before any check held back by the outage can read it.
   */
  onRecovery(listener: RegisterRecoveryListener): void {
    this.recoveryListeners.push(listener);
  }

  async current(country: SourceId): Promise<CurrentStatus> {
    return (await this.all()).get(country)!;
  }

  async all(): Promise<ReadonlyMap<SourceId, CurrentStatus>> {
    return this.derive(await this.states());
  }

  /**
   * The same as `all()` without waiting, while the states last read are fresh (CACHE_MS);
   * otherwise undefined (call `all()`). The same map as long as they are the same.
   */
  allIfFresh(): ReadonlyMap<SourceId, CurrentStatus> | undefined {
    const states = this.freshStates();
    return states && this.derive(states);
  }

  /** The statuses made of these states and the configuration: made once per read of the states. */
  private derive(states: Map<string, RegisterStateEntity>): ReadonlyMap<SourceId, CurrentStatus> {
    if (this.derived?.states === states) return this.derived.all;
    const result = new Map<SourceId, CurrentStatus>();
    for (const country of SOURCE_IDS) {
      const stored = states.get(country);
      const pauseReason = country === LEI_INDEX ? null : this.connectors.pauseReason(country);
      if (pauseReason) {
        result.set(country, {
          status: 'paused',
          reason: pauseReason,
          changedAt: stored?.status === 'paused' ? stored.changedAt : null,
          readable: false,
        });
      } else if (!stored) {
        result.set(country, {
          status: 'degraded',
          reason: 'No probe has completed yet.',
          changedAt: null,
          readable: false,
        });
      } else if (stored.status === 'paused') {
        result.set(country, {
          status: 'degraded',
          reason: 'Resumed; waiting for the next probe.',
          changedAt: null,
          readable: false,
        });
      } else {
        result.set(country, {
          status: stored.status,
          reason: stored.reason,
          changedAt: stored.changedAt,
          readable: this.isReadable(country, stored),
        });
      }
    }
    this.derived = { states, all: result };
    return result;
  }

  /**
   * Writes configuration-driven changes (pausing, resuming) as transitions. Run by the
   * worker at boot and before each scheduling round.
   */
  async reconcile(): Promise<void> {
    for (const { country } of REGISTER_TABLE) {
      const pauseReason = this.connectors.pauseReason(country);
      const after = await this.dataSource.transaction(async (m) => {
        const stored = await this.store.lock(m, country);
        if (pauseReason && stored?.status !== 'paused') {
          return this.write(m, country, stored, {
            status: 'paused',
            reason: pauseReason,
            consecutiveFailures: 0,
            consecutiveSuccesses: 0,
          });
        } else if (!pauseReason && stored?.status === 'paused') {
          return this.write(m, country, stored, {
            status: 'degraded',
            reason: 'Resumed; waiting for the next probe.',
            consecutiveFailures: 0,
            consecutiveSuccesses: 0,
          });
        }
        return [];
      });
      for (const run of after) await run();
    }
    this.cache = undefined;
  }

  /** Applies `decide` to the stored state under a row lock and records any transition. */
  async update(country: SourceId, decide: (previous: StreakState | null) => StreakState): Promise<void> {
    const after = await this.dataSource.transaction(async (m) => {
      const stored = await this.store.lock(m, country);
      const previous = stored && {
        status: stored.status,
        reason: stored.reason,
        consecutiveFailures: stored.consecutiveFailures,
        consecutiveSuccesses: stored.consecutiveSuccesses,
      };
      return this.write(m, country, stored, decide(previous));
    });
    this.cache = undefined;
    for (const run of after) await run();
  }

  async transitions(country: SourceId, limit = 20): Promise<RegisterStatusTransitionEntity[]> {
    return this.store.transitions(country, limit);
  }

  private isReadable(
    country: SourceId,
    s: Pick<StreakState, 'status' | 'consecutiveFailures' | 'consecutiveSuccesses'> | null,
  ): boolean {
    if (!s) return false;
    if (s.status === 'live') return true;
    const isMirror = country !== LEI_INDEX && !this.connectors.get(country).source().official;
    return isMirror && s.status === 'degraded' && s.consecutiveFailures === 0 && s.consecutiveSuccesses > 0;
  }

  private async write(
    m: EntityManager,
    country: SourceId,
    stored: RegisterStateEntity | null,
    next: StreakState,
  ): Promise<AfterCommit[]> {
    const now = this.clock.now();
    const after: AfterCommit[] = [];
    // register.unavailable and register.available are about registers: the LEI index's outages are shown in /status only.
    let unreadableSince: Date | null | undefined;
    const wasReadable = this.isReadable(country, stored);
    const isReadable = this.isReadable(country, next);
    if (country !== LEI_INDEX && wasReadable && !isReadable) {
      unreadableSince = now;
      for (const listener of this.outageListeners) {
        const run = await listener(m, { country, status: next.status, reason: next.reason, since: now });
        if (run) after.push(run);
      }
    } else if (country !== LEI_INDEX && !wasReadable && isReadable && stored?.unreadableSince) {
      unreadableSince = null;
      const recovery = { country, status: next.status, since: stored.unreadableSince, until: now };
      for (const listener of this.recoveryListeners) {
        const run = await listener(m, recovery);
        if (run) after.push(run);
      }
    }
    let changed = !stored || stored.status !== next.status;
    if (!stored) {
      // Two processes may create the first row at once: the loser's insert is a no-op.
      changed = await this.store.insertFirst(m, country, next, now);
    } else {
      await this.store.update(m, country, next, changed ? now : undefined, unreadableSince);
    }
    if (changed) {
      await this.store.addTransition(m, {
        country,
        fromStatus: stored?.status ?? null,
        toStatus: next.status,
        reason: next.reason,
        at: now,
      });
    }
    return after;
  }

  private async states(): Promise<Map<string, RegisterStateEntity>> {
    const fresh = this.freshStates();
    if (fresh) return fresh;
    const at = Date.now();
    const rows = await this.store.all();
    this.cache = { at, states: new Map(rows.map((r) => [r.country.trim(), r])) };
    return this.cache.states;
  }

  /** The states last read, while they are fresh (CACHE_MS). */
  private freshStates(): Map<string, RegisterStateEntity> | undefined {
    return this.cache && Date.now() - this.cache.at < CACHE_MS ? this.cache.states : undefined;
  }
}
