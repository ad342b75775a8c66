import { Module } from '@nestjs/common';
import { McpController } from './mcp.controller';
import { McpHttpService } from './mcp-http.service';

/** POST /api/public/v1/mcp: the lookups as MCP tools, on the official SDK. HTTP only. */
@Module({
  controllers: [McpController],
  providers: [McpHttpService],
})
export class McpModule {}
