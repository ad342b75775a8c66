import type { DataSource, MigrationInterface } from 'typeorm';
import type { AppConfig } from '../config/app-config';

/**
 * What the service's database holds, handed to the platform by the app (app/database-schema.ts):
 * the platform opens and migrates a database without knowing the features' tables.
 */
export interface DatabaseSchema {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own type for entity classes
  entities: Function[];
  migrations: Array<new () => MigrationInterface>;
  /** The key of the prepared embedded template for these migrations (and the seed, if seeded). */
  templateKey(seed: boolean): string;
  /** What a migrated database is given after its migrations (idempotent: it runs after every migration run). */
  prepare(dataSource: DataSource, config: AppConfig): Promise<void>;
}
