import { Controller, Get, Injectable } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiPublicErrors } from './api-public-errors.decorator';
import type { OpenAPIObject } from '@nestjs/swagger';

/** The OpenAPI document generated from the code, built at boot by http-app.ts once the modules are in place. */
@Injectable()
export class OpenApiDocument {
  document?: OpenAPIObject;
}

/**
 * Serves the document as a route of the public API, so it goes through the same rate limit,
 * CORS and error handling as every other /api/public/v1 response.
 */
@ApiTags('docs')
@Controller('api/public/v1/openapi.json')
export class OpenApiController {
  constructor(private readonly holder: OpenApiDocument) {}

  @Get()
  @ApiOperation({
    summary: 'This OpenAPI document',
    description: 'Generated from the code; the pages at /docs render it.',
  })
  @ApiOkResponse({
    description: 'An OpenAPI 3.0 document.',
    schema: {
      type: 'object',
      required: ['openapi', 'info', 'paths'],
      properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } },
    },
  })
  @ApiPublicErrors()
  document(): OpenAPIObject | Record<string, never> {
    return this.holder.document ?? {};
  }
}
