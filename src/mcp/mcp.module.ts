import { Module } from '@nestjs/common';
import { RegistersModule } from '../registers/registers.module';
import { SearchModule } from '../search/search.module';
import { StatusModule } from '../status/status.module';
import { McpHttpService } from './mcp-http.service';

/** POST /api/public/v1/mcp: the lookups as MCP tools, on the official SDK; the same services as REST. */
@Module({
  imports: [SearchModule, RegistersModule, StatusModule],
  providers: [McpHttpService],
  exports: [McpHttpService],
})
export class McpModule {}
