import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { DataDirLockedError } from './data-dir-lock';
import { buildDataSourceOptions } from './data-source-options';
import type { DatabaseSchema } from './database-schema';
import { runMigrations } from './migrate';

/**
 * Postgres (DATABASE_URL) or the embedded PGlite. Migrations are applied while the
 * DataSource is created (unless MIGRATE_ON_BOOT=false), so no module ever sees an old schema.
 */
@Module({})
export class DatabaseModule {
  static forConfig(config: AppConfig, schema: DatabaseSchema): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => ({
            ...buildDataSourceOptions(config, schema),
            retryAttempts: 3,
            retryDelay: 1_000,
            // Another process holding the data directory will not let go in a second.
            toRetry: (err: unknown) => !(err instanceof DataDirLockedError),
          }),
          dataSourceFactory: async (options) => {
            const dataSource = await new DataSource(options!).initialize();
            if (config.migrateOnBoot) {
              await runMigrations(dataSource);
              await schema.prepare(dataSource, config);
            }
            return dataSource;
          },
        }),
      ],
    };
  }
}
