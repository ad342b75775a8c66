import { DynamicModule, Module } from '@nestjs/common';
import { Role } from '../core/config/app-config';
import { StatusCoreModule } from '../status/status-core.module';
import { ConnectorsModule } from './connectors/connectors.module';
import { RegistersController } from './registers.controller';
import { RegistersService } from './registers.service';

/** GET /registers, from the register table. */
@Module({})
export class RegistersModule {
  static forRole(role: Role): DynamicModule {
    return {
      module: RegistersModule,
      imports: [ConnectorsModule, StatusCoreModule],
      providers: [RegistersService],
      controllers: role === 'worker' ? [] : [RegistersController],
      exports: [RegistersService],
    };
  }
}
