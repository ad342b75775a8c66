import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiPublicErrors } from '../platform/openapi/api-public-errors.decorator';
import { LeiResponseDto } from './dto/lei-response.dto';
import { LeiService } from './lei.service';

@ApiTags('lei')
@Controller('api/public/v1/lei')
export class LeiController {
  constructor(private readonly lei: LeiService) {}

  @Get(':lei')
  @ApiOperation({
    summary: 'One legal entity by its LEI, from GLEIF’s Global LEI Index',
    description:
      'The LEI’s ISO 17442 check digits are verified offline (a wrong one is a 400 that says so; lower case and surrounding spaces are read as the LEI); the record is then read live from GLEIF. Provenance: `source.kind` is `lei_index` and `source.official` is true — GLEIF is the official source of LEI data, not of national registration data, whose record here is `entity.nationalRecord.path` where the service reads that register. No fallback: GLEIF failing is a 502. The MCP tool lookup_lei answers with the same data.',
  })
  @ApiParam({
    name: 'lei',
    type: String,
    description: 'Legal Entity Identifier: 18 letters and digits, then 2 check digits (ISO 17442).',
    example: '21380068P1DRHMJ8KU70',
  })
  @ApiOkResponse({ type: LeiResponseDto })
  @ApiPublicErrors('invalid_query', 'lei_not_found', 'upstream_error')
  get(@Param('lei') lei: string): Promise<LeiResponseDto> {
    return this.lei.lookup(lei);
  }
}
