import { Module } from '@nestjs/common';
import { AccessRequestsController } from './access-requests.controller';
import { AccessRequestsService } from './access-requests.service';
import { AccessRequestAdmin } from './admin/access-request-admin.service';
import { AccountsController } from './accounts.controller';
import { AccountsService } from './accounts.service';
import { ApiKeyAuth } from './api-key-auth.service';

/**
 * Free accounts, API keys and their authentication, and access requests for live delivery
 * (with the operator's commands). ApiKeyAuth is what other modules' controllers guard with
 * (ApiKeyGuard).
 */
@Module({
  controllers: [AccountsController, AccessRequestsController],
  providers: [AccountsService, ApiKeyAuth, AccessRequestsService, AccessRequestAdmin],
  exports: [ApiKeyAuth],
})
export class AccountsModule {}
