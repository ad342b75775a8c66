import { Module } from '@nestjs/common';
import { DatasetModule } from '../dataset/dataset.module';
import { LeiModule } from '../lei/lei.module';
import { StatusModule } from '../status/status.module';
import { SearchController } from './search.controller';
import { SearchService } from './search.service';

/** Search and company lookup (GET /search, /companies/{country}/{number}, the MCP tools). */
@Module({
  imports: [DatasetModule, StatusModule, LeiModule],
  controllers: [SearchController],
  providers: [SearchService],
  exports: [SearchService],
})
export class SearchModule {}
