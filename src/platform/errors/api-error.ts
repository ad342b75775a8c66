import { PROBLEMS, ProblemCode } from './problem-catalog';

export interface FieldError {
  field: string;
  code: string;
  message: string;
}

/**
 * A failure with a contract code. Services throw it; the one global filter turns it into an
 * RFC 9457 problem document. `extras` become extension members (for example `resetAt`).
 */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ProblemCode,
    readonly detail: string,
    readonly extras: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.status = PROBLEMS[code].status;
  }

  static missingParameter(field: string): ApiError {
    return new ApiError('missing_parameter', `The query parameter "${field}" is required.`, {
      errors: [{ field, code: 'missing_parameter', message: `${field} is required` }],
    });
  }

  static invalidParameter(field: string, message: string): ApiError {
    return new ApiError('invalid_parameter', message, {
      errors: [{ field, code: 'invalid_parameter', message }],
    });
  }
}
