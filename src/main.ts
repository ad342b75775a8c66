import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import { PublicAddress } from './platform/http/public-address';
import { rootModuleFor } from './app/app.module';
import { holdDataDir, bootFailure } from './app/boot-failure';
import { loadConfig } from './app/config';
import type { AppConfig, Role } from './platform/config/app-config';
import { configureHttpApp } from './app/http-app';

/** Once read: bootFailure names the variable of a port that could not be opened. */
let config: AppConfig | undefined;

/**
 * `npm start`: the all-in-one process (HTTP, jobs and schedules) — on the embedded default
 * without DATABASE_URL / REDIS_URL. `npm run start:api` (--role=api): HTTP only.
 */
async function bootstrap(): Promise<void> {
  const role: Role = process.argv.includes('--role=api') ? 'api' : 'all';
  const configs = loadConfig(process.env, role, { service: true });
  config = configs.app;
  holdDataDir(config);
  const app = await NestFactory.create(rootModuleFor(role, configs), {
    bufferLogs: true,
    bodyParser: false,
    abortOnError: false,
  });
  configureHttpApp(app, config);
  await app.listen(config.port, config.host);
  app.get(PublicAddress).listeningOn((app.getHttpServer().address() as AddressInfo).port);
}

bootstrap().catch((err: Error) => {
  console.error(bootFailure(err, config));
  process.exit(1);
});
