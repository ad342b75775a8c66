import { Module } from '@nestjs/common';
import { ConnectorRegistry } from './connector-registry';
import { REGISTER_CONNECTORS, RegisterConnector } from './connector';
import { REGISTER_LIST } from './registers';

/** One connector class per register, from the registers record. */
export const CONNECTORS = REGISTER_LIST.map((r) => r.connector);

/** One connector per register of the table, collected under one token. */
@Module({
  providers: [
    ...CONNECTORS,
    {
      provide: REGISTER_CONNECTORS,
      inject: CONNECTORS,
      useFactory: (...connectors: RegisterConnector[]) => connectors,
    },
    ConnectorRegistry,
  ],
  exports: [ConnectorRegistry],
})
export class ConnectorsModule {}
