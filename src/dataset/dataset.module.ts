import { Module } from '@nestjs/common';
import { DatasetService } from './dataset.service';

/** The fallback dataset: company rows imported from the registers' bulk files. */
@Module({
  providers: [DatasetService],
  exports: [DatasetService],
})
export class DatasetModule {}
