import type { AdminSetup } from '../platform/admin/admin-command';
import { AppConfig, ConfigError, Role } from '../platform/config/app-config';
import { SECRETS_KEY_REQUIRED } from '../platform/platform.module';
import { RegistersConfig } from '../registers/register-config';
import { DATABASE_SCHEMA } from './database-schema';

export const REDIS_REQUIRED_APART =
  'REDIS_URL: required by start:api and start:worker, which run apart and hand their jobs over through Redis (one process without Redis: npm start)';

/** The whole configuration of a process: the service's variables and every register's own. */
export interface Configs {
  app: AppConfig;
  registers: RegistersConfig;
}

/** Reads and validates the environment once; throws one ConfigError listing every bad value of both. */
export function loadConfig(env: NodeJS.ProcessEnv, role: Role = 'all', options: { service?: boolean } = {}): Configs {
  const problems: string[] = [];
  const read = <T>(f: () => T): T | undefined => {
    try {
      return f();
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.push(...err.problems);
      return undefined;
    }
  };
  const app = read(() => AppConfig.fromEnv(env, role));
  const registers = read(() => RegistersConfig.fromEnv(env));
  // A service process on Postgres signs webhooks with secrets it must decrypt: every process needs the same key.
  if (options.service && app?.databaseUrl && !app.secretsKeys.current) problems.push(SECRETS_KEY_REQUIRED);
  // Apart, the api's jobs reach the workers only through Redis: without it they would wait in
  // the api's memory for a processor it never runs, and deliveries only for a worker's sweep.
  if (options.service && app && role !== 'all' && !app.redisUrl) problems.push(REDIS_REQUIRED_APART);
  if (!app || !registers || problems.length) throw new ConfigError(problems);
  return { app, registers };
}

/** What an operator command runs with outside the service: its database, and the registers' settings. */
export function adminSetup(env: NodeJS.ProcessEnv): AdminSetup {
  const { app, registers } = loadConfig(env, 'worker');
  return { config: app, schema: DATABASE_SCHEMA, standalone: new Map([[RegistersConfig, registers]]) };
}
