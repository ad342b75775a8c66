import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiPublicErrors } from '../platform/openapi/api-public-errors.decorator';
import { REGISTER_TABLE } from '../registers/registers';
import { CompanyResponseDto, SearchResponseDto } from './dto/search-response.dto';
import { QUERY_MAX_LENGTH, QUERY_MIN_LENGTH } from './query-validation';
import { SearchService } from './search.service';

const COUNTRIES = REGISTER_TABLE.map((r) => r.country);

@ApiTags('companies')
@Controller('api/public/v1')
export class SearchController {
  constructor(private readonly search: SearchService) {}

  @Get('search')
  @ApiOperation({
    summary: 'Look a company up by name or registration number in one country’s register',
    description:
      'A q that is a registration number in the country’s format (spaces, dots and dashes ignored; check digits verified offline) is looked up directly; anything else is a name search. No match is `resolved: false`, not an error. Where the register has no name search, or cannot be asked for the kind of number given (KRS: a NIP or REGON), the fallback dataset answers with `register.status` degraded and a `warning` saying so in the register’s terms — `resolved: false` when it holds nothing.',
  })
  @ApiQuery({
    name: 'q',
    required: true,
    type: String,
    description: `Company name or registration number, ${QUERY_MIN_LENGTH}–${QUERY_MAX_LENGTH} characters, with at least one letter or digit and no control characters.`,
    example: 'Equinor',
  })
  @ApiQuery({
    name: 'country',
    required: true,
    enum: COUNTRIES,
    description: `ISO 3166-1 alpha-2 code (also accepted in lower case): ${COUNTRIES.join(', ')}.`,
    example: 'NO',
  })
  @ApiOkResponse({ type: SearchResponseDto })
  @ApiPublicErrors('missing_parameter', 'invalid_query', 'country_not_covered', 'upstream_error')
  find(@Query('q') q: unknown, @Query('country') country: unknown): Promise<SearchResponseDto> {
    return this.search.search(q, country);
  }

  @Get('companies/:country/:registrationNumber')
  @ApiOperation({
    summary: 'One company, with officers where the register publishes them',
    description: 'Same provenance rules as search. The MCP tool get_company answers with the same data.',
  })
  @ApiParam({
    name: 'country',
    enum: COUNTRIES,
    description: `ISO 3166-1 alpha-2 (also accepted in lower case): ${COUNTRIES.join(', ')}.`,
    example: 'NO',
  })
  @ApiParam({
    name: 'registrationNumber',
    type: String,
    description: 'Registration number in the country’s format: letters, digits, spaces, dots and dashes.',
    example: '923609016',
  })
  @ApiOkResponse({ type: CompanyResponseDto })
  @ApiPublicErrors('invalid_query', 'invalid_parameter', 'country_not_covered', 'company_not_found', 'upstream_error')
  company(
    @Param('country') country: string,
    @Param('registrationNumber') registrationNumber: string,
  ): Promise<CompanyResponseDto> {
    return this.search.company(country, registrationNumber);
  }
}
