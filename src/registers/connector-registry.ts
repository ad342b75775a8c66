import { Injectable } from '@nestjs/common';
import { Clock } from '../platform/clock';
import { AppConfig } from '../platform/config/app-config';
import { HttpClientFactory } from './client/http-client.factory';
import type { ConnectorDeps, RegisterConnector } from './connector';
import { RegistersConfig } from './register-config';
import { COUNTRY_CODES, CountryCode, REGISTERS } from './registers';

/** The connector of each register, built from its definition, and whether it can read live now. */
@Injectable()
export class ConnectorRegistry {
  private readonly byCountry: Map<CountryCode, RegisterConnector>;

  constructor(
    private readonly registers: RegistersConfig,
    private readonly config: AppConfig,
    private readonly http: HttpClientFactory,
    private readonly clock: Clock,
  ) {
    this.byCountry = new Map(COUNTRY_CODES.map((cc) => [cc, REGISTERS[cc].createConnector(this.depsOf(cc))]));
  }

  get(country: CountryCode): RegisterConnector {
    return this.byCountry.get(country)!;
  }

  /** What the register's connector was built with (its feeds and streams are built with the same). */
  depsOf(country: CountryCode): ConnectorDeps {
    return { settings: this.registers.of(country), config: this.config, http: this.http, clock: this.clock };
  }

  /**
   * Why the register is paused under the current configuration, or null: an operator's
   * REGISTER_<CC>_PAUSED, or a credential without which it cannot be read.
   */
  pauseReason(country: CountryCode): string | null {
    if (this.registers.of(country).paused) return `Paused by the operator (REGISTER_${country}_PAUSED).`;
    return this.get(country).unavailableReason();
  }
}
