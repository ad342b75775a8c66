import type { Type } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import type { DatabaseSchema } from '../database/database-schema';

/** What a command runs with when it runs on its own, outside the service (assembled by the app). */
export interface AdminSetup {
  config: AppConfig;
  schema: DatabaseSchema;
  /** What `get` answers outside the service, by token. */
  standalone: ReadonlyMap<unknown, unknown>;
}

/** Where a command writes: each call is one line, streamed to the operator's terminal. */
export interface AdminIo {
  out(line: string): void;
  err(line: string): void;
}

/** What a command gets when it runs inside the process that owns the database. */
export interface AdminContext {
  /** The arguments after the command name, as the operator typed them. */
  argv: string[];
  /** The operator's working directory: relative paths in argv are relative to it. */
  cwd: string;
  config: AppConfig;
  dataSource: DataSource;
  /** Any provider of the running application (services, repositories). */
  get<T>(token: Type<T> | string | symbol): T;
  io: AdminIo;
}

/**
 * A command an operator runs with npm (`npm run dataset:import`, `npm run admin -- …`). On
 * the embedded default, when the service is running, the CLI sends it over the admin socket
 * and it runs here, in the service, on the service's own database session: only one process
 * ever opens the data directory. Returns the exit code.
 */
export interface AdminCommand {
  /** The npm script name the operator types (`dataset:import`, `migration:run`, `admin`). */
  name: string;
  run(context: AdminContext): Promise<number>;
}
