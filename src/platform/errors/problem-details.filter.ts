import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isDatabaseUnavailable } from '../database/database-errors';
import { ApiError } from './api-error';

/** What a 503 for a stalled database tells the client to wait: a few seconds, as the timeouts that made it. */
const DATABASE_RETRY_AFTER_SECONDS = 5;
import { PROBLEMS, ProblemCode, problemTypeUri } from './problem-catalog';
import { RouteIndex } from './route-index';

const STATUS_TO_CODE: Record<number, ProblemCode> = {
  400: 'invalid_parameter',
  401: 'unauthorized',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  502: 'upstream_error',
  503: 'service_unavailable',
};

/**
 * The one place where failures become responses: RFC 9457 problem details
 * (application/problem+json) with the contract's `code`. Nothing internal leaks: an
 * unexpected error is logged with its stack and answered with a bare 500.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger(ProblemDetailsFilter.name);

  constructor(private readonly routes: RouteIndex) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<Request>();
    const res = ctx.getResponse<Response>();
    const error = this.toApiError(exception, req);
    if (res.headersSent) {
      res.end();
      return;
    }
    writeProblem(req, res, error);
  }

  private toApiError(exception: unknown, req: Request): ApiError {
    if (exception instanceof ApiError) return exception;
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404) {
        const allowed = this.routes.allowedMethods(req.path);
        if (allowed) {
          return new ApiError(
            'method_not_allowed',
            `${req.method} is not allowed on ${req.path}. Allowed: ${allowed.join(', ')}.`,
            {},
            { Allow: allowed.join(', ') },
          );
        }
        return new ApiError('not_found', `There is no endpoint at ${truncate(req.path)}.`);
      }
      const code = STATUS_TO_CODE[status];
      if (code) return new ApiError(code, httpExceptionDetail(exception) ?? PROBLEMS[code].title);
      if (status < 500) return new ApiError('invalid_parameter', httpExceptionDetail(exception) ?? 'Bad request.');
    }
    const bodyParserType = (exception as { type?: string } | null)?.type;
    if (bodyParserType === 'entity.too.large')
      return new ApiError('payload_too_large', 'The request body is too large.');
    if (bodyParserType === 'entity.parse.failed')
      return new ApiError('invalid_parameter', 'The request body is not valid JSON.');
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn(
        `${req.method} ${req.path}: the database did not answer in time (${(exception as Error).message})`,
      );
      return new ApiError(
        'service_unavailable',
        'The database did not answer in time. Try again in a few seconds.',
        {},
        { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
      );
    }
    this.logger.error({ err: exception, path: req.path }, 'unhandled error');
    return new ApiError('internal_error', 'An internal error occurred.');
  }
}

export function writeProblem(req: Request, res: Response, error: ApiError): void {
  const problem = PROBLEMS[error.code];
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  const requestId = (req as Request & { id?: unknown }).id;
  res
    .status(error.status)
    .type('application/problem+json')
    .send(
      JSON.stringify({
        type: problemTypeUri(error.code),
        title: problem.title,
        status: error.status,
        detail: error.detail,
        instance: requestId ? `urn:request:${String(requestId)}` : undefined,
        code: error.code,
        ...error.extras,
      }),
    );
}

function httpExceptionDetail(exception: HttpException): string | undefined {
  const body = exception.getResponse();
  if (typeof body === 'string') return body;
  const message = (body as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : undefined;
}

function truncate(s: string, max = 200): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
