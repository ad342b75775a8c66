import { DynamicModule, Module } from '@nestjs/common';
import { Role } from '../core/config/app-config';
import { DatasetModule } from '../dataset/dataset.module';
import { ConnectorsModule } from '../registers/connectors/connectors.module';
import { SearchController } from './search.controller';
import { SearchService } from './search.service';

/** GET /search and GET /companies/{country}/{number}; SearchService is also what MCP tools call. */
@Module({})
export class SearchModule {
  static forRole(role: Role): DynamicModule {
    return {
      module: SearchModule,
      imports: [ConnectorsModule, DatasetModule],
      providers: [SearchService],
      controllers: role === 'worker' ? [] : [SearchController],
      exports: [SearchService],
    };
  }
}
