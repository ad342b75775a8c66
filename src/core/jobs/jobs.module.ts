import { BullModule } from '@nestjs/bull';
import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { BullJobQueue } from './bull-job-queue';
import { InProcessJobQueue } from './in-process-job-queue';
import { JobQueue, QUEUE_NAMES } from './job-queue';

/** Bull on Redis when REDIS_URL is set, the in-process runner otherwise. */
@Module({})
export class JobsModule {
  static forConfig(config: AppConfig): DynamicModule {
    if (!config.redisUrl) {
      return { module: JobsModule, global: true, providers: [{ provide: JobQueue, useClass: InProcessJobQueue }], exports: [JobQueue] };
    }
    return {
      module: JobsModule,
      global: true,
      imports: [
        BullModule.forRoot({ redis: config.redisUrl, prefix: config.redisKeyPrefix }),
        BullModule.registerQueue(...QUEUE_NAMES.map((name) => ({ name }))),
      ],
      providers: [{ provide: JobQueue, useClass: BullJobQueue }],
      exports: [JobQueue],
    };
  }
}
