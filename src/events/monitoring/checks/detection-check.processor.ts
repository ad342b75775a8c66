import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobProcessor, JobQueue } from '../../../platform/jobs/job-queue';
import { CompanyCheckService } from './company-check.service';
import { DetectionCheckJob } from './detection-check.queue';

/** Takes detection-check jobs off the queue. Worker only. */
@Injectable()
export class DetectionCheckProcessor implements OnModuleInit, JobProcessor<'detection-check'> {
  constructor(
    private readonly jobs: JobQueue,
    private readonly checks: CompanyCheckService,
  ) {}

  onModuleInit(): void {
    this.jobs.process('detection-check', this);
  }

  async process(job: DetectionCheckJob): Promise<void> {
    if ('confirmQuietUpTo' in job) await this.checks.confirmQuiet(job.country, new Date(job.confirmQuietUpTo));
    else await this.checks.checkBatch(job.country, job.entityIds, job.leaseToken);
  }
}
