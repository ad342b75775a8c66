import { PublicAddress } from '../../../platform/http/public-address';
import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { RegisterOutage, RegisterStatusService } from '../../../status/register-status.service';
import { WatchStore } from '../watches/watch-store';
import { DetectionEventWriter, EmittedEvent } from './detection-event-writer';
import { registerUnavailableData } from './detection-events';

/**
 * `register.unavailable`, once per outage (the moment a register stops being readable), to
 * every account watching a company of it, in the transaction that records the transition.
 * Recovery is not an event: it shows in /registers and /status, and the checks held back
 * during the outage run after it (their events observed after recovery).
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
