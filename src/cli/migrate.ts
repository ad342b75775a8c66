import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { AppConfig } from '../core/config/app-config';
import { buildDataSourceOptions } from '../database/data-source-options';
import { runMigrations } from '../database/migrate';
import { seedBundledSample } from '../dataset/seed/bundled-sample';

/** `npm run migration:run`: applies pending migrations to DATABASE_URL (or the embedded database). */
async function main(): Promise<void> {
  const config = AppConfig.fromEnv(process.env, 'worker');
  const dataSource = new DataSource(buildDataSourceOptions(config));
  await dataSource.initialize();
  try {
    const applied = await runMigrations(dataSource);
    if (config.datasetSeed) await seedBundledSample(dataSource);
    const target = config.databaseUrl ? 'Postgres' : `PGlite in ${config.dataDir}`;
    console.log(applied.length ? `Applied ${applied.length} migration(s) to ${target}: ${applied.join(', ')}` : `No pending migrations (${target}).`);
  } finally {
    await dataSource.destroy();
  }
}

main().catch((err: Error) => {
  console.error(`migration failed: ${err.message}`);
  process.exit(1);
});
