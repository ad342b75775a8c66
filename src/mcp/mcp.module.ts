import { Module } from '@nestjs/common';
import { LeiModule } from '../lei/lei.module';
import { SearchModule } from '../search/search.module';
import { StatusModule } from '../status/status.module';
import { McpHttpService } from './mcp-http.service';
import { McpController } from './mcp.controller';

/** POST /api/public/v1/mcp: the lookups as MCP tools, on the official SDK; the same services as REST. */
@Module({
  imports: [SearchModule, StatusModule, LeiModule],
  controllers: [McpController],
  providers: [McpHttpService],
})
export class McpModule {}
