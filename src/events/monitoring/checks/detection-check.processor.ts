import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobProcessor, JobQueue } from '../../../platform/jobs/job-queue';
import { CompanyCheckService } from './company-check.service';
import { DETECTION_CHECK_QUEUE, DetectionCheckJob } from './detection-check.queue';

/** Takes detection-check jobs off the queue. Worker only. */
@Injectable()
export class DetectionCheckProcessor implements OnModuleInit, JobProcessor<DetectionCheckJob> {
  constructor(
    private readonly jobs: JobQueue,
    private readonly checks: CompanyCheckService,
  ) {}

  onModuleInit(): void {
    this.jobs.process(DETECTION_CHECK_QUEUE, this);
  }

  async process(job: DetectionCheckJob): Promise<void> {
    if ('confirmQuietUpTo' in job) await this.checks.confirmQuiet(job.country, new Date(job.confirmQuietUpTo));
    else await this.checks.checkBatch(job.country, job.entityIds, job.leaseToken);
  }
}
