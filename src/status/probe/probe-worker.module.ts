import { Module } from '@nestjs/common';
import { StatusModule } from '../status.module';
import { ProbeQueue } from './probe-queue.service';
import { ProbeProcessor } from './probe.processor';
import { ProbeScheduler } from './probe.scheduler';

/** The probe queue in the worker: the schedule that enqueues one probe per register per slot, and the processor. */
@Module({
  imports: [StatusModule],
  providers: [ProbeQueue, ProbeScheduler, ProbeProcessor],
})
export class ProbeWorkerModule {}
