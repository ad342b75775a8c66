import { COUNTRY_CODES, countryList } from '../../../registers/registers';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiKeyGuard, CurrentPrincipal } from '../../accounts/api-key.guard';
import type { Principal } from '../../accounts/api-key-auth.service';
import { ApiAccountErrors } from '../../../platform/openapi/api-account-errors.decorator';
import { BULK_MAX_WATCHES } from './watch-input';
import { WatchBulkResponseDto, WatchDto, WatchListDto } from './dto/watch.dto';
import { WatchService } from './watch.service';

const ID = { name: 'watchId', example: 'wch_5Jx2mQ8vL0cR7tYb3nWk9p' };
const WATCH_BODY = {
  schema: {
    type: 'object',
    required: ['country', 'registrationNumber'],
    additionalProperties: false,
    properties: {
      country: { type: 'string', example: 'GB', description: `${countryList()} (any case).` },
      registrationNumber: {
        type: 'string',
        example: '04475590',
        description:
          'In the register’s format, checked like /search checks it (check digits; spaces, dots and dashes ignored).',
      },
      notifyNoChange: {
        type: 'boolean',
        default: false,
        description: 'Also send company.no_change after each scheduled check that found nothing.',
      },
    },
  },
};

@ApiTags('watches')
@Controller('api/v1/watches')
@UseGuards(ApiKeyGuard)
export class WatchesController {
  constructor(private readonly watches: WatchService) {}

  @Post()
  @ApiOperation({
    summary: 'Watch a company',
    description:
      'The baseline is an official live read, made now when the register is readable; otherwise the watch is created with a pending baseline, taken at the first successful read. Watching a company the account already watches answers the existing watch with 200.',
  })
  @ApiBody(WATCH_BODY)
  @ApiCreatedResponse({ type: WatchDto, description: 'Created.' })
  @ApiOkResponse({ type: WatchDto, description: 'The account already watches the company: the existing watch.' })
  @ApiAccountErrors(
    'invalid_body',
    'country_not_covered',
    'watch_quota_exceeded',
    'unsupported_media_type',
    'payload_too_large',
  )
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: unknown,
    @Res({ passthrough: true }) res: Response,
  ): Promise<WatchDto> {
    const { created, watch } = await this.watches.create(principal.accountId, body);
    res.status(created ? 201 : 200).location(`/api/v1/watches/${watch.id}`);
    return watch;
  }

  @Post('bulk')
  @HttpCode(200)
  @ApiOperation({
    summary: `Watch up to ${BULK_MAX_WATCHES.toLocaleString('en')} companies at once`,
    description:
      'A portfolio in one request (`{"watches": [{country, registrationNumber, notifyNoChange?}, …]}`, at most 2 MB), answered row by row: created, existing, or failed with the status and code a single create would have answered. Baselines are taken by the detection workers, not during the request.',
  })
  @ApiBody({
    schema: {
      type: 'object',
      required: ['watches'],
      properties: { watches: { type: 'array', maxItems: BULK_MAX_WATCHES, items: WATCH_BODY.schema } },
    },
  })
  @ApiOkResponse({ type: WatchBulkResponseDto })
  @ApiAccountErrors('invalid_body', 'watch_quota_exceeded', 'unsupported_media_type', 'payload_too_large')
  createMany(@CurrentPrincipal() principal: Principal, @Body() body: unknown): Promise<WatchBulkResponseDto> {
    return this.watches.createMany(principal.accountId, body);
  }

  @Get()
  @ApiOperation({
    summary: 'The account’s watches',
    description: 'Newest first, with each company’s baseline, last check and next check time.',
  })
  @ApiQuery({
    name: 'country',
    required: false,
    type: String,
    enum: COUNTRY_CODES,
    example: 'NO',
  })
  @ApiQuery({ name: 'limit', required: false, type: Number, example: 50, description: '1–100, default 50.' })
  @ApiQuery({ name: 'cursor', required: false, type: String, description: 'nextCursor of the previous page.' })
  @ApiOkResponse({ type: WatchListDto })
  @ApiAccountErrors('invalid_parameter', 'country_not_covered')
  list(@CurrentPrincipal() principal: Principal, @Query() query: Record<string, unknown>): Promise<WatchListDto> {
    return this.watches.list(principal.accountId, query);
  }

  @Get(':watchId')
  @ApiOperation({ summary: 'One watch' })
  @ApiParam(ID)
  @ApiOkResponse({ type: WatchDto })
  @ApiAccountErrors('resource_not_found')
  get(@CurrentPrincipal() principal: Principal, @Param('watchId') id: string): Promise<WatchDto> {
    return this.watches.get(principal.accountId, id);
  }

  @Delete(':watchId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Stop watching a company' })
  @ApiParam(ID)
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiAccountErrors('resource_not_found')
  remove(@CurrentPrincipal() principal: Principal, @Param('watchId') id: string): Promise<void> {
    return this.watches.remove(principal.accountId, id);
  }
}
