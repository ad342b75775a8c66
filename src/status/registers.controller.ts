import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiPublicErrors } from '../platform/openapi/api-public-errors.decorator';
import { REGISTER_STATUSES } from './register-status';
import { RegisterListDto } from './dto/register.dto';
import { RegisterListResponse } from './register-list-response';
import { PROVIDES_VALUES, RegistersService } from './registers.service';

@ApiTags('registers')
@Controller('api/public/v1/registers')
export class RegistersController {
  constructor(
    private readonly registers: RegistersService,
    private readonly response: RegisterListResponse,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Registers the service reads',
    description:
      'Every register, from the same table the service itself uses, with its capabilities and current health.',
  })
  @ApiQuery({
    name: 'provides',
    required: false,
    isArray: true,
    enum: PROVIDES_VALUES,
    style: 'form',
    explode: false,
    description: `Keep registers providing every listed capability (comma-separated): ${PROVIDES_VALUES.join(', ')}.`,
    example: ['officers'],
  })
  @ApiQuery({
    name: 'status',
    required: false,
    isArray: true,
    enum: REGISTER_STATUSES,
    style: 'form',
    explode: false,
    description: `Keep registers in any listed status (comma-separated): ${REGISTER_STATUSES.join(', ')}.`,
    example: ['live'],
  })
  @ApiOkResponse({
    type: RegisterListDto,
    headers: {
      ETag: {
        description: 'Changes whenever the list does (a status included): send it back in If-None-Match.',
        schema: { type: 'string' },
      },
    },
  })
  @ApiResponse({
    status: 304,
    description: 'Not Modified: the list is the one of the ETag sent in If-None-Match (no body).',
  })
  @ApiPublicErrors('invalid_parameter')
  list(@Res() res: Response): void | Promise<void> {
    // The plain list with fresh statuses was answered ahead of this route (RegisterListResponse):
    // what comes here is filtered, conditional, or finds the statuses to be read again.
    const { provides, status } = res.req.query as Record<string, unknown>;
    if (provides !== undefined || status !== undefined)
      return this.registers.list({ provides, status }).then((list) => void res.json(list));
    return this.registers.listJson().then((json) => this.response.send(json, res));
  }
}
