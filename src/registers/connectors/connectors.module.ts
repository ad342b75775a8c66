import { Module } from '@nestjs/common';
import { ConnectorRegistry } from '../connector-registry';
import { AuConnector } from './au';
import { CaConnector } from './ca';
import { REGISTER_CONNECTORS, RegisterConnector } from './connector';
import { DkConnector } from './dk';
import { FrConnector } from './fr';
import { GbConnector } from './gb';
import { NoConnector } from './no';

export const CONNECTORS = [GbConnector, AuConnector, CaConnector, FrConnector, DkConnector, NoConnector];

/** One connector per register of the table, collected under one token. */
@Module({
  providers: [
    ...CONNECTORS,
    { provide: REGISTER_CONNECTORS, inject: CONNECTORS, useFactory: (...connectors: RegisterConnector[]) => connectors },
    ConnectorRegistry,
  ],
  exports: [ConnectorRegistry],
})
export class ConnectorsModule {}
