import { Module } from '@nestjs/common';
import { AccessRequestsService } from './access-requests.service';
import { AccessRequestAdmin } from './admin/access-request-admin.service';
import { AccountsService } from './accounts.service';
import { ApiKeyAuth } from './api-key-auth.service';

/**
 * Free accounts, API keys and their authentication, and access requests for live delivery
 * (with the operator's commands). The guards (ApiKeyGuard, SignupLimitGuard) live beside the
 * api's controllers, which provide the rate-limit storage they count in.
 */
@Module({
  providers: [AccountsService, ApiKeyAuth, AccessRequestsService, AccessRequestAdmin],
  exports: [AccountsService, ApiKeyAuth, AccessRequestsService, AccessRequestAdmin],
})
export class AccountsModule {}
