import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import type { AdminCommand } from './admin-command';
import { ADMIN_COMMANDS, AdminSocketService } from './admin-socket.service';

/**
 * The admin socket of the embedded default (DATA_DIR on disk): operator commands run in the
 * process that owns the database. Nothing on Postgres, where every command opens its own
 * connection.
 */
@Module({})
export class AdminModule {
  static forConfig(config: AppConfig, commands: readonly AdminCommand[]): DynamicModule {
    if (config.databaseUrl || config.dataDir === 'memory://') return { module: AdminModule };
    return {
      module: AdminModule,
      providers: [{ provide: ADMIN_COMMANDS, useValue: commands }, AdminSocketService],
      exports: [AdminSocketService],
    };
  }
}
