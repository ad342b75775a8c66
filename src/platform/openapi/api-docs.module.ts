import { Module } from '@nestjs/common';
import { ProblemsController } from '../errors/problems.controller';
import { OpenApiController, OpenApiDocument } from './openapi.controller';

/** The OpenAPI document (GET /api/public/v1/openapi.json) and the pages of the error codes (`type` of every problem). */
@Module({
  controllers: [OpenApiController, ProblemsController],
  providers: [OpenApiDocument],
  exports: [OpenApiDocument],
})
export class ApiDocsModule {}
