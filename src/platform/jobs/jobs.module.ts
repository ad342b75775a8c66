import { BullModule, getQueueToken } from '@nestjs/bull';
import { DynamicModule, Module } from '@nestjs/common';
import type { Queue } from 'bull';
import { AppConfig } from '../config/app-config';
import { RedisHealth } from '../redis/redis-health.service';
import { BullJobQueue, SCHEDULE_BACKOFF } from './bull-job-queue';
import { InProcessJobQueue } from './in-process-job-queue';
import { JobQueue, QUEUE_DEFINITIONS, QueueDefinitions } from './job-queue';
import { retryDelayMs } from './queue-definition';
import { QueueMetrics } from './queue-metrics';

/** Bull on Redis when REDIS_URL is set, the in-process runner otherwise; every queue the app lists. */
@Module({})
export class JobsModule {
  static forConfig(config: AppConfig, definitions: QueueDefinitions): DynamicModule {
    const names = [...definitions.keys()];
    const definitionsProvider = { provide: QUEUE_DEFINITIONS, useValue: definitions };
    if (!config.redisUrl) {
      return {
        module: JobsModule,
        global: true,
        providers: [definitionsProvider, { provide: JobQueue, useClass: InProcessJobQueue }, QueueMetrics],
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
          ...names.map((name) => ({
            name,
            settings: {
              backoffStrategies: {
                [SCHEDULE_BACKOFF]: (triesMade: number) => retryDelayMs(definitions.get(name)!, triesMade),
              },
            },
          })),
        ),
      ],
      providers: [
        {
          provide: JobQueue,
          inject: [RedisHealth, ...names.map((name) => getQueueToken(name))],
          useFactory: (health: RedisHealth, ...queues: Queue[]) =>
            new BullJobQueue(new Map(names.map((name, i) => [name, queues[i]])), definitions, health),
        },
        QueueMetrics,
      ],
      exports: [JobQueue],
    };
  }
}
