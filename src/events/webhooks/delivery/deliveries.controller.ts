import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { ApiKeyGuard, CurrentPrincipal } from '../../accounts/api-key.guard';
import type { Principal } from '../../accounts/api-key-auth.service';
import { ApiAccountErrors } from '../../../platform/openapi/api-account-errors.decorator';
import { expectNoFields, parseBody, parseQuery } from '../../../platform/validation/zod-input';
import { openApiSchema } from '../../../platform/validation/zod-openapi';
import { DeliveryLogService } from './delivery-log.service';
import { deliveriesQuerySchema } from './dto/deliveries-query';
import {
  DELIVERY_STATES,
  DeliveryDetailDto,
  DeliveryDto,
  DeliveryListDto,
  replaySchema,
  ReplayResultDto,
} from './dto/delivery.dto';

const ENDPOINT = { name: 'endpointId', example: 'we_5Jx2mQ8vL0cR7tYb3nWk9p' };
const DELIVERY = { name: 'deliveryId', example: 'dlv_8sKq1Vx4mT0bZr6cLw2nPy' };

@ApiTags('deliveries')
@Controller('api/v1/webhook-endpoints/:endpointId')
@UseGuards(ApiKeyGuard)
export class DeliveriesController {
  constructor(private readonly log: DeliveryLogService) {}

  @Get('deliveries')
  @ApiOperation({ summary: 'The endpoint’s deliveries, newest first' })
  @ApiParam(ENDPOINT)
  @ApiQuery({ name: 'state', required: false, enum: DELIVERY_STATES })
  @ApiQuery({
    name: 'since',
    required: false,
    description: 'Only deliveries created at or after this time.',
    schema: { type: 'string', format: 'date-time' },
  })
  @ApiQuery({
    name: 'until',
    required: false,
    description: 'Only deliveries created before this time.',
    schema: { type: 'string', format: 'date-time' },
  })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } })
  @ApiQuery({ name: 'cursor', required: false, description: '`nextCursor` of the previous page.' })
  @ApiOkResponse({ type: DeliveryListDto })
  @ApiAccountErrors('resource_not_found', 'invalid_parameter')
  list(
    @CurrentPrincipal() principal: Principal,
    @Param('endpointId') endpointId: string,
    @Query() query: unknown,
  ): Promise<DeliveryListDto> {
    return this.log.list(principal.accountId, endpointId, parseQuery(deliveriesQuerySchema, query));
  }

  @Get('deliveries/:deliveryId')
  @ApiOperation({ summary: 'One delivery: every attempt, and the exact request sent (headers per attempt, body)' })
  @ApiParam(ENDPOINT)
  @ApiParam(DELIVERY)
  @ApiOkResponse({ type: DeliveryDetailDto })
  @ApiAccountErrors('resource_not_found')
  get(
    @CurrentPrincipal() principal: Principal,
    @Param('endpointId') endpointId: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<DeliveryDetailDto> {
    return this.log.get(principal.accountId, endpointId, deliveryId);
  }

  @Post('deliveries/:deliveryId/retry')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Retry one delivery now',
    description:
      'One more attempt as soon as a worker takes it, with the same webhook-id (a fresh timestamp and signature). Works on failed, succeeded and pending deliveries; a held one only once the account has live delivery.',
  })
  @ApiParam(ENDPOINT)
  @ApiParam(DELIVERY)
  @ApiAcceptedResponse({ type: DeliveryDto })
  @ApiAccountErrors('resource_not_found', 'conflict', 'invalid_body')
  retry(
    @CurrentPrincipal() principal: Principal,
    @Param('endpointId') endpointId: string,
    @Param('deliveryId') deliveryId: string,
    @Body() body: unknown,
  ): Promise<DeliveryDto> {
    expectNoFields(body);
    return this.log.retry(principal.accountId, endpointId, deliveryId);
  }

  @Post('replay')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Replay every failed delivery of the endpoint since a time',
    description: 'Each gets one more attempt now, with its own webhook-id.',
  })
  @ApiParam(ENDPOINT)
  @ApiBody({ schema: openApiSchema(replaySchema) })
  @ApiAcceptedResponse({ type: ReplayResultDto })
  @ApiAccountErrors('resource_not_found', 'invalid_body', 'conflict', 'unsupported_media_type', 'payload_too_large')
  replay(
    @CurrentPrincipal() principal: Principal,
    @Param('endpointId') endpointId: string,
    @Body() body: unknown,
  ): Promise<ReplayResultDto> {
    return this.log.replay(principal.accountId, endpointId, parseBody(replaySchema, body));
  }
}
