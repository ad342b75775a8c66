import { Module } from '@nestjs/common';
import { AccountsModule } from '../events/accounts/accounts.module';
import { MonitoringModule } from '../events/monitoring/monitoring.module';
import { WebhooksModule } from '../events/webhooks/webhooks.module';
import { LeiModule } from '../lei/lei.module';
import { SearchModule } from '../search/search.module';
import { StatusModule } from '../status/status.module';
import { McpHttpService } from './mcp-http.service';
import { McpController } from './mcp.controller';

/**
 * POST /api/public/v1/mcp: the lookups as MCP tools, on the official SDK, and with an API key
 * the account's watches and events; the same services as REST.
 */
@Module({
  imports: [SearchModule, StatusModule, LeiModule, AccountsModule, MonitoringModule, WebhooksModule],
  controllers: [McpController],
  providers: [McpHttpService],
})
export class McpModule {}
