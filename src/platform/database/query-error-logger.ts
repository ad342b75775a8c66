import type { Logger as TypeOrmLogger } from 'typeorm';
import { DeferredLogger } from '../logging/deferred-logger';

/**
 * TypeORM's own loggers print a failed query with its parameters — and some parameters are
 * webhook secrets or key hashes. This one logs the failure (the statement's first words and
 * the error) through the service's JSON logs, never a parameter; nothing else is logged.
 */
export class QueryErrorLogger implements TypeOrmLogger {
  private readonly logger = new DeferredLogger('Database');

  logQueryError(error: string | Error, query: string): void {
    const statement = query.replace(/\s+/g, ' ').trim().slice(0, 120);
    this.logger.error(`query failed: ${typeof error === 'string' ? error : error.message} (${statement}…)`);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
  }

  logQuery(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
}
