import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiPublicErrors } from '../openapi/api-public-errors.decorator';
import { ApiError } from './api-error';
import { PROBLEM_CODES, PROBLEMS, ProblemCode, problemTypeUri } from './problem-catalog';

const PROBLEM_SCHEMA = {
  type: 'object' as const,
  required: ['type', 'code', 'status', 'title', 'description'],
  properties: {
    type: { type: 'string' as const, format: 'uri-reference' },
    code: { type: 'string' as const, enum: PROBLEM_CODES },
    status: { type: 'integer' as const },
    title: { type: 'string' as const },
    description: { type: 'string' as const },
  },
};

/** The documentation every problem document's `type` points to. */
@ApiTags('errors')
@Controller('api/public/v1/problems')
export class ProblemsController {
  @Get()
  @ApiOperation({ summary: 'Every error code the API answers with' })
  @ApiOkResponse({
    description: 'Every error code with its HTTP status, title and meaning.',
    schema: {
      type: 'object',
      required: ['problems'],
      properties: { problems: { type: 'array', items: PROBLEM_SCHEMA } },
    },
  })
  @ApiPublicErrors()
  list() {
    return { problems: PROBLEM_CODES.map((code) => describe(code)) };
  }

  @Get(':code')
  @ApiOperation({ summary: 'One error code: its HTTP status, title and meaning' })
  @ApiParam({ name: 'code', enum: PROBLEM_CODES })
  @ApiOkResponse({
    description: 'The error code’s HTTP status, title and meaning.',
    schema: { ...PROBLEM_SCHEMA, example: describe('missing_parameter') },
  })
  @ApiPublicErrors('invalid_parameter', 'not_found')
  one(@Param('code') code: string) {
    if (!(PROBLEM_CODES as string[]).includes(code))
      throw new ApiError('not_found', `There is no error code "${code.slice(0, 60)}".`);
    return describe(code as ProblemCode);
  }
}

function describe(code: ProblemCode) {
  return { type: problemTypeUri(code), code, ...PROBLEMS[code] };
}
