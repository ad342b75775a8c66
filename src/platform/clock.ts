import { Injectable } from '@nestjs/common';

/** The time, injected so that tests can set it. */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}

/** A clock a test moves by hand. */
export class ManualClock extends Clock {
  constructor(private current: Date) {
    super();
  }

  override now(): Date {
    return new Date(this.current.getTime());
  }

  set(at: Date | string): void {
    this.current = new Date(at);
  }

  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
