import type { INestApplication } from '@nestjs/common';
import { ValidationPipe } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import cors from 'cors';
import type { NextFunction, Request, Response } from 'express';
import { Logger } from 'nestjs-pino';
import { AppConfig } from './core/config/app-config';
import { ApiError } from './core/errors/api-error';
import { writeProblem } from './core/errors/problem-details.filter';
import { assignRequestId } from './core/logging/request-id';
import { OpenApiDocument } from './core/openapi/openapi.controller';
import { RateLimitMiddleware } from './core/rate-limit/rate-limit.middleware';
import { PROBLEM_CODES, PROBLEMS } from './core/errors/problem-catalog';

/** Headers browser code may read from our responses. */
export const EXPOSED_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'X-Request-Id', 'Mcp-Session-Id'];

/**
 * Everything an HTTP application needs beyond its modules; used by main.ts and by the
 * end-to-end tests so they test what runs.
 */
export function configureHttpApp(app: INestApplication, config: AppConfig): void {
  const express = app as NestExpressApplication;
  express.useLogger(app.get(Logger));
  express.set('trust proxy', config.trustProxy);
  express.disable('x-powered-by');
  express.set('query parser', 'simple');
  express.use((req: Request, res: Response, next: NextFunction) => {
    assignRequestId(req, res);
    next();
  });
  // The read API is open to any origin, without credentials; browsers may read the rate-limit headers.
  express.use(
    '/api/public',
    cors({
      origin: '*',
      credentials: false,
      methods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
      allowedHeaders: ['Content-Type', 'Accept', 'MCP-Protocol-Version', 'Mcp-Session-Id', 'Last-Event-ID', 'X-Request-Id'],
      exposedHeaders: EXPOSED_HEADERS,
      maxAge: 86_400,
    }),
  );
  // Counted before any routing, as a prefix match: unknown paths, wrong methods and paths
  // that no route can even decode are counted and carry the headers too.
  const rateLimit = app.get(RateLimitMiddleware);
  express.use('/api/public/v1', (req: Request, res: Response, next: NextFunction) => {
    rateLimit.use(req, res, next).catch((err: unknown) => (err instanceof ApiError ? writeProblem(req, res, err) : next(err)));
  });
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, transform: true }));
  app.enableShutdownHooks();

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Registry Lookup API')
      .setDescription(
        [
          'Open, keyless read access to official company registers (GB, AU, CA, FR, DK, NO), with exact provenance on every record.',
          '',
          '**Rate limit.** 120 requests per hour per client IP (IPv6: per /64), counted across all /api/public/v1 endpoints. Every response carries `X-RateLimit-Remaining` and `X-RateLimit-Reset` (**seconds until the window resets**, a delta, not an epoch time); over the limit: 429 `rate_limited` with `Retry-After` and `resetAt`.',
          '',
          '**Errors** are RFC 9457 problem details (`application/problem+json`) with a machine-readable `code`:',
          ...PROBLEM_CODES.map((c) => `- \`${c}\` (${PROBLEMS[c].status}): ${PROBLEMS[c].description}`),
        ].join('\n'),
      )
      .setVersion(config.apiVersion)
      .addServer(config.publicBaseUrl)
      .build(),
  );
  app.get(OpenApiDocument).document = document;
  SwaggerModule.setup('docs', app, document, {
    customSiteTitle: 'Registry Lookup API',
    swaggerOptions: { url: '/api/public/v1/openapi.json' },
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
  });
}
