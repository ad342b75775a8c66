import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { rootModuleFor } from './app/app.module';
import { holdDataDir, bootFailure } from './app/boot-failure';
import { loadConfig } from './app/config';
import type { AppConfig } from './platform/config/app-config';

/** Once read: bootFailure names the variable of a port that could not be opened. */
let config: AppConfig | undefined;

/** `npm run start:worker`: job processors and schedules; opens no port but METRICS_PORT's. */
async function bootstrap(): Promise<void> {
  const configs = loadConfig(process.env, 'worker', { service: true });
  config = configs.app;
  holdDataDir(config);
  const app = await NestFactory.createApplicationContext(rootModuleFor('worker', configs), {
    bufferLogs: true,
    abortOnError: false,
  });
  const logger = app.get(Logger);
  app.useLogger(logger);
  app.enableShutdownHooks();
  // Processors and schedules are running once the context is created: say so, for operators and tests.
  logger.log(`worker ready (pid ${process.pid}): processing jobs and running schedules`, 'Worker');
}

bootstrap().catch((err: Error) => {
  console.error(bootFailure(err, config));
  process.exit(1);
});
