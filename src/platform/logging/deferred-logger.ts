import type { Logger } from '@nestjs/common';

/**
 * NestJS's Logger for `context`, loaded at the first line logged. For modules the dataset
 * import loads too (the database options, the bundled sample): a process that logs nothing
 * through them does not load NestJS (0.12–0.15 s of the import's start).
 */
export class DeferredLogger {
  private logger?: Logger;

  constructor(private readonly context: string) {}

  private get nest(): Logger {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    this.logger ??= new (require('@nestjs/common') as typeof import('@nestjs/common')).Logger(this.context);
    return this.logger;
  }

  log(message: string): void {
    this.nest.log(message);
  }

  warn(message: string): void {
    this.nest.warn(message);
  }

  error(message: string): void {
    this.nest.error(message);
  }
}
