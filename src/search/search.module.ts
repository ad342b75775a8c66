import { Module } from '@nestjs/common';
import { DatasetModule } from '../dataset/dataset.module';
import { ConnectorsModule } from '../registers/connectors.module';
import { SearchService } from './search.service';

/** Search and company lookup (GET /search, /companies/{country}/{number}, the MCP tools). */
@Module({
  imports: [ConnectorsModule, DatasetModule],
  providers: [SearchService],
  exports: [SearchService],
})
export class SearchModule {}
