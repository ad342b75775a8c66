import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiPublicErrors } from '../core/openapi/api-public-errors.decorator';
import { REGISTER_STATUSES } from '../status/register-status';
import { RegisterListDto } from './dto/register.dto';
import { PROVIDES_VALUES, RegistersService } from './registers.service';

@ApiTags('registers')
@Controller('api/public/v1/registers')
export class RegistersController {
  constructor(private readonly registers: RegistersService) {}

  @Get()
  @ApiOperation({ summary: 'Registers the service reads', description: 'Every register, from the same table the service itself uses, with its capabilities and current health.' })
  @ApiQuery({ name: 'provides', required: false, description: `Keep registers providing every listed capability: ${PROVIDES_VALUES.join(', ')} (comma-separated).`, example: 'officers' })
  @ApiQuery({ name: 'status', required: false, description: `Keep registers in any listed status: ${REGISTER_STATUSES.join(', ')} (comma-separated).`, example: 'live' })
  @ApiOkResponse({ type: RegisterListDto })
  @ApiPublicErrors('invalid_parameter')
  list(@Query('provides') provides?: unknown, @Query('status') status?: unknown): Promise<RegisterListDto> {
    return this.registers.list({ provides, status });
  }
}
