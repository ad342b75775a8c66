import { BullModule, getQueueToken } from '@nestjs/bull';
import { DynamicModule, Module } from '@nestjs/common';
import type { Queue } from 'bull';
import { AppConfig } from '../config/app-config';
import { RedisHealth } from '../redis/redis-health.service';
import { BullJobQueue, SCHEDULE_BACKOFF } from './bull-job-queue';
import { InProcessJobQueue } from './in-process-job-queue';
import { JobQueue } from './job-queue';
import { retryDelayMs } from './queue-definition';
import { QUEUE_NAMES, QUEUES } from '../../app/queues';

/** Bull on Redis when REDIS_URL is set, the in-process runner otherwise; every queue of `queues.ts`. */
@Module({})
export class JobsModule {
  static forConfig(config: AppConfig): DynamicModule {
    if (!config.redisUrl) {
      return {
        module: JobsModule,
        global: true,
        providers: [{ provide: JobQueue, useClass: InProcessJobQueue }],
        exports: [JobQueue],
      };
    }
    return {
      module: JobsModule,
      global: true,
      imports: [
        // Every Bull connection comes from the Redis breaker: failures are counted there, not logged one by one.
        BullModule.forRootAsync({
          inject: [RedisHealth],
          useFactory: (health: RedisHealth) => ({
            prefix: config.redisKeyPrefix,
            createClient: (type: 'client' | 'subscriber' | 'bclient') =>
              type === 'client'
                ? // Adds wait for a connection, a little: the queue's own time box (BullJobQueue.add) decides.
                  health.createClient('bull', {
                    enableOfflineQueue: true,
                    maxRetriesPerRequest: 1,
                    commandTimeout: undefined,
                  })
                : // Bull's blocking and subscribing connections must wait for Redis, not fail.
                  health.createClient(`bull-${type}`, {
                    enableOfflineQueue: true,
                    maxRetriesPerRequest: null,
                    enableReadyCheck: false,
                    commandTimeout: undefined,
                  }),
          }),
        }),
        BullModule.registerQueue(
          ...QUEUE_NAMES.map((name) => ({
            name,
            settings: {
              backoffStrategies: { [SCHEDULE_BACKOFF]: (triesMade: number) => retryDelayMs(QUEUES[name], triesMade) },
            },
          })),
        ),
      ],
      providers: [
        {
          provide: JobQueue,
          inject: [RedisHealth, ...QUEUE_NAMES.map((name) => getQueueToken(name))],
          useFactory: (health: RedisHealth, ...queues: Queue[]) =>
            new BullJobQueue(new Map(QUEUE_NAMES.map((name, i) => [name, queues[i]])), health),
        },
      ],
      exports: [JobQueue],
    };
  }
}
