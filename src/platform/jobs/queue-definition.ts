import type { z } from 'zod';

/**
 * One queue: its name, the type of its payload (validated when a job is taken), how often a
 * failed job is tried again and after how long, and how many jobs one process runs at once.
 * Each queue defines itself in its own folder; `queues.ts` collects them.
 */
export interface QueueDefinition<T> {
  name: string;
  payload: z.ZodType<T>;
  /** Tries in all, the first included. */
  attempts: number;
  /** Delay before each retry: `backoffMs[0]` before the second try, and so on; the last repeats. */
  backoffMs: readonly number[];
  /** Jobs run at once per process. */
  concurrency: number;
}

/** Delay before the try that follows `triesMade` failed tries. */
export function retryDelayMs(definition: QueueDefinition<unknown>, triesMade: number): number {
  const schedule = definition.backoffMs;
  if (schedule.length === 0) return 0;
  return schedule[Math.min(Math.max(triesMade, 1), schedule.length) - 1];
}
