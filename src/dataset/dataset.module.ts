import { Logger, Module, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DatasetService } from './dataset.service';
import { DatasetImportStore } from './import/dataset-import-store';

/** The fallback dataset: company rows imported from the registers' bulk files. */
@Module({
  providers: [DatasetService],
  exports: [DatasetService],
})
export class DatasetModule implements OnModuleInit {
  constructor(private readonly dataSource: DataSource) {}

  /** An import killed mid-way is recorded as such: its rows so far are served with a warning saying so. */
  async onModuleInit(): Promise<void> {
    const interrupted = await new DatasetImportStore(this.dataSource).markInterrupted().catch(() => 0);
    if (interrupted > 0)
      new Logger('Dataset').warn(
        `${interrupted} dataset import(s) had stopped before the end of their file: recorded as interrupted`,
      );
  }
}
