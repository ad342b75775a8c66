import { DynamicModule, Module } from '@nestjs/common';
import { HttpClientFactory } from './client/http-client.factory';
import { RegisterBreaker } from './client/register-breaker';
import { ConnectorRegistry } from './connector-registry';
import { RegistersConfig } from './register-config';

/**
 * The registers as the rest of the service reads them: each register's connector (through
 * ConnectorRegistry), its settings, and the one HTTP client every register read goes through
 * (timeouts, User-Agent, breaker, politeness shared across processes).
 */
@Module({})
export class RegistersModule {
  static forConfig(registers: RegistersConfig): DynamicModule {
    return {
      module: RegistersModule,
      global: true,
      providers: [
        { provide: RegistersConfig, useValue: registers },
        HttpClientFactory,
        RegisterBreaker,
        ConnectorRegistry,
      ],
      exports: [RegistersConfig, HttpClientFactory, RegisterBreaker, ConnectorRegistry],
    };
  }
}
