import { Module } from '@nestjs/common';
import { AccessRequestStore } from './access-request-store';
import { AccessRequestsController } from './access-requests.controller';
import { AccessRequestsService } from './access-requests.service';
import { AccountGate } from './account-gate.service';
import { AccountStore } from './account-store';
import { AccessRequestAdmin } from './admin/access-request-admin.service';
import { AccountsController } from './accounts.controller';
import { AccountsService } from './accounts.service';
import { ApiKeyStore } from './api-key-store';
import { AccountRequestLimit } from './account-request-limit.service';
import { ApiKeyAuth } from './api-key-auth.service';

/**
 * Free accounts, API keys and their authentication, and access requests for live delivery
 * (with the operator's commands). ApiKeyAuth is what other modules' controllers guard with
 * (ApiKeyGuard, with AccountRequestLimit, the account's hourly count; the MCP server uses both
 * too); AccountGate is what they may ask of an account in their own transaction.
 * The stores are this module's own: nothing else writes SQL against its tables.
 */
@Module({
  controllers: [AccountsController, AccessRequestsController],
  providers: [
    AccountStore,
    ApiKeyStore,
    AccessRequestStore,
    AccountsService,
    ApiKeyAuth,
    AccountRequestLimit,
    AccountGate,
    AccessRequestsService,
    AccessRequestAdmin,
  ],
  exports: [ApiKeyAuth, AccountRequestLimit, AccountGate],
})
export class AccountsModule {}
