import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { ApiKeyGuard, CurrentPrincipal } from '../../accounts/api-key.guard';
import type { Principal } from '../../accounts/api-key-auth.service';
import { ApiAccountErrors } from '../../../platform/openapi/api-account-errors.decorator';
import { expectNoFields, parseBody } from '../../../platform/validation/zod-input';
import { openApiSchema } from '../../../platform/validation/zod-openapi';
import {
  createEndpointSchema,
  updateEndpointSchema,
  WebhookEndpointDto,
  WebhookEndpointListDto,
  WebhookEndpointWithSecretDto,
} from './dto/webhook-endpoint.dto';
import { WebhookEndpointsService } from './webhook-endpoints.service';

const ID = { name: 'endpointId', example: 'we_5Jx2mQ8vL0cR7tYb3nWk9p' };

@ApiTags('webhook endpoints')
@Controller('api/v1/webhook-endpoints')
@UseGuards(ApiKeyGuard)
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Add a webhook endpoint',
    description:
      'The answer holds the endpoint’s Standard Webhooks signing secret (`secret`, `whsec_…`), shown this once. A URL that is or resolves to a private, loopback, link-local, CGNAT, unique-local, multicast, unspecified, reserved or documentation address is refused (422 target_not_allowed); the address is checked again at every attempt. At most 20 endpoints per account.',
  })
  @ApiBody({ schema: openApiSchema(createEndpointSchema) })
  @ApiCreatedResponse({ type: WebhookEndpointWithSecretDto })
  @ApiAccountErrors('invalid_body', 'target_not_allowed', 'conflict', 'unsupported_media_type', 'payload_too_large')
  create(@CurrentPrincipal() principal: Principal, @Body() body: unknown): Promise<WebhookEndpointWithSecretDto> {
    return this.endpoints.create(principal.accountId, parseBody(createEndpointSchema, body));
  }

  @Get()
  @ApiOperation({ summary: 'The account’s webhook endpoints' })
  @ApiOkResponse({ type: WebhookEndpointListDto })
  @ApiAccountErrors()
  async list(@CurrentPrincipal() principal: Principal): Promise<WebhookEndpointListDto> {
    return { data: await this.endpoints.list(principal.accountId) };
  }

  @Get(':endpointId')
  @ApiOperation({
    summary: 'One webhook endpoint',
    description: 'Shows whether it is enabled and, when it was disabled, when and why.',
  })
  @ApiParam(ID)
  @ApiOkResponse({ type: WebhookEndpointDto })
  @ApiAccountErrors('resource_not_found')
  get(@CurrentPrincipal() principal: Principal, @Param('endpointId') id: string): Promise<WebhookEndpointDto> {
    return this.endpoints.get(principal.accountId, id);
  }

  @Patch(':endpointId')
  @ApiOperation({ summary: 'Change an endpoint’s URL, events, description, or enable / disable it' })
  @ApiParam(ID)
  @ApiBody({ schema: openApiSchema(updateEndpointSchema) })
  @ApiOkResponse({ type: WebhookEndpointDto })
  @ApiAccountErrors(
    'resource_not_found',
    'invalid_body',
    'target_not_allowed',
    'unsupported_media_type',
    'payload_too_large',
  )
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('endpointId') id: string,
    @Body() body: unknown,
  ): Promise<WebhookEndpointDto> {
    return this.endpoints.update(principal.accountId, id, parseBody(updateEndpointSchema, body));
  }

  @Delete(':endpointId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete an endpoint and its delivery log',
    description: 'Events stay listed under /api/v1/events.',
  })
  @ApiParam(ID)
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiAccountErrors('resource_not_found')
  remove(@CurrentPrincipal() principal: Principal, @Param('endpointId') id: string): Promise<void> {
    return this.endpoints.remove(principal.accountId, id);
  }

  @Post(':endpointId/rotate-secret')
  @ApiOperation({
    summary: 'Rotate the signing secret',
    description:
      'Answers with the new secret, shown this once. For 24 hours both secrets sign every delivery (two `v1,` entries in webhook-signature), so receivers can switch without losing a delivery.',
  })
  @ApiParam(ID)
  @ApiOkResponse({ type: WebhookEndpointWithSecretDto })
  @ApiAccountErrors('resource_not_found', 'invalid_body')
  @HttpCode(200)
  rotate(
    @CurrentPrincipal() principal: Principal,
    @Param('endpointId') id: string,
    @Body() body: unknown,
  ): Promise<WebhookEndpointWithSecretDto> {
    expectNoFields(body);
    return this.endpoints.rotateSecret(principal.accountId, id);
  }
}
