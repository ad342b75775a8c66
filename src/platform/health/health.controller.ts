import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { ProblemDetailsDto } from '../openapi/problem-details.dto';
import { HealthCheckResult, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { ApiError } from '../errors/api-error';
import { RedisHealthIndicator } from './redis.health';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly redis: RedisHealthIndicator,
  ) {}

  @Get('live')
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @ApiOkResponse({ schema: { example: { status: 'ok' } } })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness: the database and (when configured) Redis answer' })
  @ApiOkResponse({
    schema: { example: { status: 'ok', info: { database: { status: 'up' }, redis: { status: 'up' } } } },
  })
  @ApiExtraModels(ProblemDetailsDto)
  @ApiServiceUnavailableResponse({
    description: 'A dependency is down (problem details with code service_unavailable and the checks).',
    content: {
      'application/problem+json': {
        schema: {
          allOf: [
            { $ref: getSchemaPath(ProblemDetailsDto) },
            { properties: { code: { type: 'string', enum: ['service_unavailable'] }, checks: { type: 'object' } } },
          ],
        },
      },
    },
  })
  async ready(): Promise<HealthCheckResult> {
    try {
      return await this.health.check([
        () => this.db.pingCheck('database', { timeout: 2_000 }),
        () => this.redis.pingCheck('redis', 2_000),
      ]);
    } catch (err) {
      if (!(err instanceof ServiceUnavailableException)) throw err;
      const result = err.getResponse() as HealthCheckResult;
      const down = Object.keys(result.error ?? {});
      throw new ApiError('service_unavailable', `Not ready: ${down.join(', ')} not answering.`, {
        checks: result.details,
      });
    }
  }
}
