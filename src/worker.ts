import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { AppConfig } from './core/config/app-config';

/** `npm run start:worker`: job processors and schedules; opens no port. */
async function bootstrap(): Promise<void> {
  const config = AppConfig.fromEnv(process.env, 'worker');
  const app = await NestFactory.createApplicationContext(AppModule.forRole('worker', config), { bufferLogs: true });
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
}

bootstrap().catch((err: Error) => {
  console.error(err.message.startsWith('Invalid configuration') ? err.message : err);
  process.exit(1);
});
