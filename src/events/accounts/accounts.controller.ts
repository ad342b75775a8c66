import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAccountErrors } from '../../platform/openapi/api-account-errors.decorator';
import { parseBody } from '../../platform/validation/zod-input';
import { openApiSchema } from '../../platform/validation/zod-openapi';
import { AccountsService } from './accounts.service';
import { ApiKeyGuard, CurrentPrincipal } from './api-key.guard';
import type { Principal } from './api-key-auth.service';
import {
  AccountDto,
  ApiKeyDto,
  ApiKeyListDto,
  NewApiKeyDto,
  newKeySchema,
  SignupDto,
  signupSchema,
} from './dto/account.dto';
import { SignupLimitGuard } from './signup-limit.guard';

@ApiTags('accounts')
@Controller('api/v1')
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Post('accounts')
  @HttpCode(201)
  @UseGuards(SignupLimitGuard)
  @ApiOperation({
    summary: 'Create a free account',
    description:
      'Answers with the account and its first API key, shown this once (`apiKey`). Limited per client IP (SIGNUPS_PER_HOUR_PER_IP, default 10 an hour); the X-RateLimit-* headers count sign-ups.',
  })
  @ApiBody({ schema: openApiSchema(signupSchema) })
  @ApiCreatedResponse({ type: SignupDto })
  @ApiAccountErrors({ open: true }, 'invalid_body', 'unsupported_media_type', 'payload_too_large')
  signUp(@Body() body: unknown): Promise<SignupDto> {
    return this.accounts.signUp(parseBody(signupSchema, body).email);
  }

  @Get('account')
  @UseGuards(ApiKeyGuard)
  @ApiOperation({
    summary: 'The account of the API key',
    description: 'With whether live delivery is enabled (see access requests).',
  })
  @ApiOkResponse({ type: AccountDto })
  @ApiAccountErrors()
  get(@CurrentPrincipal() principal: Principal): Promise<AccountDto> {
    return this.accounts.get(principal.accountId);
  }

  @Get('account/keys')
  @UseGuards(ApiKeyGuard)
  @ApiOperation({ summary: 'The account’s API keys (never the keys themselves)' })
  @ApiOkResponse({ type: ApiKeyListDto })
  @ApiAccountErrors()
  async listKeys(@CurrentPrincipal() principal: Principal): Promise<ApiKeyListDto> {
    return { data: await this.accounts.listKeys(principal.accountId) };
  }

  @Post('account/keys')
  @HttpCode(201)
  @UseGuards(ApiKeyGuard)
  @ApiOperation({
    summary: 'Create another API key',
    description: 'The key is in `apiKey`, shown this once. At most 20 active keys per account.',
  })
  @ApiBody({ schema: openApiSchema(newKeySchema), required: false })
  @ApiCreatedResponse({ type: NewApiKeyDto })
  @ApiAccountErrors('invalid_body', 'conflict', 'unsupported_media_type', 'payload_too_large')
  createKey(@CurrentPrincipal() principal: Principal, @Body() body: unknown): Promise<NewApiKeyDto> {
    return this.accounts.createKey(principal.accountId, parseBody(newKeySchema, body ?? {}).name);
  }

  @Delete('account/keys/:keyId')
  @UseGuards(ApiKeyGuard)
  @ApiOperation({
    summary: 'Revoke an API key',
    description:
      'From now on the key answers 401. The key stays listed with `revokedAt`. The last active key cannot be revoked (409).',
  })
  @ApiOkResponse({ type: ApiKeyDto })
  @ApiAccountErrors('resource_not_found', 'conflict')
  revokeKey(@CurrentPrincipal() principal: Principal, @Param('keyId') keyId: string): Promise<ApiKeyDto> {
    return this.accounts.revokeKey(principal.accountId, keyId);
  }
}
