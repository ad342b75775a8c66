import { DynamicModule, Logger, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { buildDataSourceOptions } from './data-source-options';
import { runMigrations } from './migrate';
import { seedBundledSample } from '../../dataset/seed/bundled-sample';
import { markInterruptedImports } from '../../dataset/import/interrupted-imports';

/**
 * Postgres (DATABASE_URL) or the embedded PGlite. Migrations are applied while the
 * DataSource is created (unless MIGRATE_ON_BOOT=false), so no module ever sees an old schema.
 */
@Module({})
export class DatabaseModule {
  static forConfig(config: AppConfig): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => ({ ...buildDataSourceOptions(config), retryAttempts: 3, retryDelay: 1_000 }),
          dataSourceFactory: async (options) => {
            const dataSource = await new DataSource(options!).initialize();
            if (config.migrateOnBoot) {
              await runMigrations(dataSource);
              if (config.datasetSeed) await seedBundledSample(dataSource);
            }
            // An import killed mid-way is recorded as such (its rows so far are served with a warning saying so).
            const interrupted = await markInterruptedImports(dataSource).catch(() => 0);
            if (interrupted > 0)
              new Logger('Dataset').warn(
                `${interrupted} dataset import(s) had stopped before the end of their file: recorded as interrupted`,
              );
            return dataSource;
          },
        }),
      ],
    };
  }
}
