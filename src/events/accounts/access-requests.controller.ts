import { Body, Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAccountErrors } from '../../platform/openapi/api-account-errors.decorator';
import { parseBody } from '../../platform/validation/zod-input';
import { openApiSchema } from '../../platform/validation/zod-openapi';
import { AccessRequestsService } from './access-requests.service';
import { ApiKeyGuard, CurrentPrincipal } from './api-key.guard';
import type { Principal } from './api-key-auth.service';
import { AccessRequestDto, AccessRequestListDto, accessRequestSchema } from './dto/access-request.dto';

@ApiTags('access requests')
@Controller('api/v1/access-requests')
@UseGuards(ApiKeyGuard)
export class AccessRequestsController {
  constructor(private readonly requests: AccessRequestsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Ask for live delivery',
    description:
      'Live webhook delivery (developer preview) is enabled by hand. Until a request is approved, live events are recorded with delivery state `held` and not sent; test events from the simulator are always sent. One request may wait for a decision at a time.',
  })
  @ApiBody({ schema: openApiSchema(accessRequestSchema) })
  @ApiCreatedResponse({ type: AccessRequestDto })
  @ApiAccountErrors('invalid_body', 'conflict', 'unsupported_media_type', 'payload_too_large')
  create(@CurrentPrincipal() principal: Principal, @Body() body: unknown): Promise<AccessRequestDto> {
    return this.requests.create(principal.accountId, parseBody(accessRequestSchema, body));
  }

  @Get()
  @ApiOperation({ summary: 'The account’s access requests and their state', description: 'Newest first.' })
  @ApiOkResponse({ type: AccessRequestListDto })
  @ApiAccountErrors()
  async list(@CurrentPrincipal() principal: Principal): Promise<AccessRequestListDto> {
    return { data: await this.requests.list(principal.accountId) };
  }
}
