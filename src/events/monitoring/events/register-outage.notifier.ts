import { PublicAddress } from '../../../platform/http/public-address';
import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { RegisterOutage, RegisterRecovery, RegisterStatusService } from '../../../status/register-status.service';
import { WatchStore } from '../watches/watch-store';
import { DetectionEventWriter, EmittedEvent } from './detection-event-writer';
import { registerAvailableData, registerUnavailableData } from './detection-events';

/**
 * `register.unavailable`, once per outage (the moment a register stops being readable), and
 * `register.available` when it is readable again (with the outage's start, end and duration),
 * to every account watching a company of it, each in the transaction that records the
 * transition. The checks held back during the outage can only run once that transaction has
 * committed, so the changes they find are written after register.available.
 */
@Injectable()
export class RegisterOutageNotifier implements OnModuleInit {
  constructor(
    private readonly statuses: RegisterStatusService,
    private readonly watches: WatchStore,
    private readonly sink: DetectionEventWriter,
    private readonly address: PublicAddress,
  ) {}

  onModuleInit(): void {
    this.statuses.onOutage((m, outage) => this.notify(m, outage));
    this.statuses.onRecovery((m, recovery) => this.notifyRecovery(m, recovery));
  }

  async notifyRecovery(m: EntityManager, recovery: RegisterRecovery): Promise<() => Promise<void>> {
    const accounts = await this.watches.accountsWatching(m, recovery.country);
    const statusUrl = this.address.url('/api/public/v1/status');
    const emitted: EmittedEvent[] = [];
    for (const a of accounts) {
      const data = registerAvailableData(
        recovery.country,
        recovery.status,
        recovery.since,
        recovery.until,
        statusUrl,
        a.companies,
      );
      emitted.push(await this.sink.emit(m, { accountId: a.accountId, kind: 'register.available', data }));
    }
    return () => this.sink.wake(emitted);
  }

  async notify(m: EntityManager, outage: RegisterOutage): Promise<() => Promise<void>> {
    const accounts = await this.watches.accountsWatching(m, outage.country);
    const statusUrl = this.address.url('/api/public/v1/status');
    const emitted: EmittedEvent[] = [];
    for (const a of accounts) {
      const data = registerUnavailableData(
        outage.country,
        outage.status,
        outage.reason,
        outage.since.toISOString(),
        statusUrl,
        a.companies,
      );
      emitted.push(await this.sink.emit(m, { accountId: a.accountId, kind: 'register.unavailable', data }));
    }
    return () => this.sink.wake(emitted);
  }
}
