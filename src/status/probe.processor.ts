import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobQueue } from '../core/jobs/job-queue';
import { ProbeJob, ProbeService } from './probe.service';

/** Takes probe jobs off the queue. Registered in the worker (and the all-in-one process) only. */
@Injectable()
export class ProbeProcessor implements OnModuleInit {
  constructor(
    private readonly jobs: JobQueue,
    private readonly probes: ProbeService,
  ) {}

  onModuleInit(): void {
    this.jobs.process<ProbeJob>('probe', (job) => this.probes.run(job), 6);
  }
}
