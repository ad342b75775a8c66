import { Injectable } from '@nestjs/common';
import { JobQueue } from '../../platform/jobs/job-queue';
import type { SourceId } from '../../registers/source-id';
import { PROBE_QUEUE } from './probe.queue';

/** The only thing that adds probe jobs. */
@Injectable()
export class ProbeQueue {
  constructor(private readonly jobs: JobQueue) {}

  /** The job id is deterministic: any number of schedulers enqueue one slot once. */
  async enqueue(country: SourceId, slotStart: Date): Promise<void> {
    const iso = slotStart.toISOString();
    await this.jobs.add(PROBE_QUEUE, { country, slotStart: iso }, { jobId: `probe:${country}:${iso}` });
  }
}
