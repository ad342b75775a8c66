import type { DataSource } from 'typeorm';
import { DeferredLogger } from '../logging/deferred-logger';
import { isPGlite } from './engine';

// Any constant works; it only has to be the same in every process of this service.
const MIGRATION_LOCK_KEY = 7_336_911_201;

/**
 * Applies pending migrations. On Postgres, a session advisory lock makes concurrent callers
 * (two replicas booting at once, the one-shot migrate service) take turns: the first applies,
 * the others then find nothing pending. PGlite is one process's own database: no lock needed.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const logger = new DeferredLogger('Migrations');
  const lock = isPGlite(dataSource) ? undefined : dataSource.createQueryRunner();
  try {
    if (lock) {
      await lock.connect();
      await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    }
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    for (const m of applied) logger.log(`applied ${m.name}`);
    return applied.map((m) => m.name);
  } finally {
    if (lock) {
      await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
      await lock.release();
    }
  }
}
