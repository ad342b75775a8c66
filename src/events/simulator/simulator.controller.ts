import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CurrentPrincipal } from '../accounts/api-key.guard';
import type { Principal } from '../accounts/api-key-auth.service';
import { ApiAccountErrors } from '../../platform/openapi/api-account-errors.decorator';
import { parseBody } from '../../platform/validation/zod-input';
import { openApiSchema } from '../../platform/validation/zod-openapi';
import { SimulationResultDto, simulateSchema } from './dto/simulate.dto';
import { SimulatorService } from './simulator.service';

@ApiTags('simulator')
@Controller('api/v1/simulator')
@UseGuards(ApiKeyGuard)
export class SimulatorController {
  constructor(private readonly simulator: SimulatorService) {}

  @Post('events')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Send one test event to an endpoint, now',
    description:
      'A real POST from the service: the contract envelope with real company data, `is_test: true`, `X-Service-Test: true`, signed like every delivery. Answers with the request sent and the receiver’s answer (or the error). The delivery is in the endpoint’s log and, if it failed, retried on the schedule. SIMULATOR_SENDS_PER_HOUR per account (default 60 in a rolling hour).',
  })
  @ApiBody({ schema: openApiSchema(simulateSchema) })
  @ApiCreatedResponse({ type: SimulationResultDto })
  @ApiAccountErrors(
    'invalid_body',
    'resource_not_found',
    'conflict',
    'target_not_allowed',
    'simulator_limit_reached',
    'invalid_query',
    'country_not_covered',
    'company_not_found',
    'upstream_error',
    'unsupported_media_type',
    'payload_too_large',
  )
  send(@CurrentPrincipal() principal: Principal, @Body() body: unknown): Promise<SimulationResultDto> {
    return this.simulator.send(principal.accountId, parseBody(simulateSchema, body));
  }
}
