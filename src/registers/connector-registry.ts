import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../platform/config/app-config';
import { REGISTER_CONNECTORS, RegisterConnector } from './connector';
import { CountryCode, REGISTER_TABLE } from './register-table';

/** The connector of each register of the table, and whether it can read live now. */
@Injectable()
export class ConnectorRegistry {
  private readonly byCountry: Map<CountryCode, RegisterConnector>;

  constructor(
    @Inject(REGISTER_CONNECTORS) connectors: RegisterConnector[],
    private readonly config: AppConfig,
  ) {
    this.byCountry = new Map(connectors.map((c) => [c.country, c]));
    const missing = REGISTER_TABLE.filter((r) => !this.byCountry.has(r.country)).map((r) => r.country);
    if (missing.length) throw new Error(`no connector for register(s) ${missing.join(', ')}`);
  }

  get(country: CountryCode): RegisterConnector {
    return this.byCountry.get(country)!;
  }

  /**
   * Why the register is paused under the current configuration, or null: an operator's
   * REGISTER_<CC>_PAUSED, or a credential without which it cannot be read.
   */
  pauseReason(country: CountryCode): string | null {
    if (this.config.register(country).paused) return `Paused by the operator (REGISTER_${country}_PAUSED).`;
    return this.get(country).unavailableReason();
  }
}
