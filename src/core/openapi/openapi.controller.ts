import { Controller, Get, Injectable } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { OpenAPIObject } from '@nestjs/swagger';

/** Holds the OpenAPI document generated from the code at boot. */
@Injectable()
export class OpenApiDocument {
  document?: OpenAPIObject;
}

/**
 * Serves the document as a route of the public API, so it goes through the same rate limit,
 * CORS and error handling as every other /api/public/v1 response.
 */
@ApiExcludeController()
@Controller('api/public/v1/openapi.json')
export class OpenApiController {
  constructor(private readonly holder: OpenApiDocument) {}

  @Get()
  document(): OpenAPIObject | Record<string, never> {
    return this.holder.document ?? {};
  }
}
