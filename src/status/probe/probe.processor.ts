import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobProcessor, JobQueue } from '../../platform/jobs/job-queue';
import { PROBE_QUEUE, ProbeJob } from './probe.queue';
import { ProbeService } from './probe.service';

/** Takes probe jobs off the queue. Worker only. */
@Injectable()
export class ProbeProcessor implements OnModuleInit, JobProcessor<ProbeJob> {
  constructor(
    private readonly jobs: JobQueue,
    private readonly probes: ProbeService,
  ) {}

  onModuleInit(): void {
    this.jobs.process(PROBE_QUEUE, this);
  }

  process(job: ProbeJob): Promise<void> {
    return this.probes.run(job);
  }
}
