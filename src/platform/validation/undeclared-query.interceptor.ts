import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { DECORATORS } from '@nestjs/swagger';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { ApiError } from '../errors/api-error';
import { summary, UNKNOWN_PARAMETER } from './zod-input';

/**
 * On the account API (/api/v1), a route whose OpenAPI operation lists no query parameter refuses
 * any: a client sending `?limit=1` to a list that does not page, or `?force=true` to a DELETE,
 * expects it to do something. Routes that list some check them with a strict schema
 * (parseQuery). The public reads ignore unknown parameters on purpose (cache-busters).
 */
@Injectable()
export class UndeclaredQueryInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() === 'http') {
      const request = context.switchToHttp().getRequest<Request>();
      if (request.path.startsWith(ACCOUNT_API) && !listsQueryParameters(context.getHandler())) {
        const names = Object.keys(request.query ?? {});
        if (names.length) throw unknownParameters(names);
      }
    }
    return next.handle();
  }
}

const ACCOUNT_API = '/api/v1/';

function listsQueryParameters(handler: object): boolean {
  const parameters = (Reflect.getMetadata(DECORATORS.API_PARAMETERS, handler) ?? []) as { in?: string }[];
  return parameters.some((p) => p.in === 'query');
}

function unknownParameters(names: string[]): ApiError {
  const errors = names.map((field) => ({
    field: field.length > 60 ? `${field.slice(0, 60)}…` : field,
    code: 'unknown_parameter',
    message: UNKNOWN_PARAMETER,
  }));
  return new ApiError('invalid_parameter', summary(errors), { errors });
}
