import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobProcessor, JobQueue } from '../../platform/jobs/job-queue';
import { ProbeJob } from './probe.queue';
import { ProbeService } from './probe.service';

/** Takes probe jobs off the queue. Worker only. */
@Injectable()
export class ProbeProcessor implements OnModuleInit, JobProcessor<'probe'> {
  constructor(
    private readonly jobs: JobQueue,
    private readonly probes: ProbeService,
  ) {}

  onModuleInit(): void {
    this.jobs.process('probe', this);
  }

  process(job: ProbeJob): Promise<void> {
    return this.probes.run(job);
  }
}
