import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import compression from 'compression';
import cors, { type CorsOptions } from 'cors';
import { json as jsonBody, type NextFunction, type Request, type Response } from 'express';
import { Logger } from 'nestjs-pino';
import { AppConfig } from '../platform/config/app-config';
import { BEARER_SCHEME } from '../platform/openapi/api-account-errors.decorator';
import { ApiError } from '../platform/errors/api-error';
import { writeProblem } from '../platform/errors/problem-details.filter';
import { COUNTRY_CODES } from '../registers/registers';
import { inLane } from '../platform/database/lanes';
import { withRequestOrigin } from '../platform/http/public-address';
import { ROOT_LOGGER } from '../platform/logging/logging.module';
import { HttpMetrics } from '../platform/metrics/http-metrics';
import { requestLogging } from '../platform/logging/request-logging';
import { notAnObject } from '../platform/validation/zod-input';
import { OpenApiDocument } from '../platform/openapi/openapi.controller';
import { documentWithWebhookEvents } from '../events/webhooks/events/openapi-webhooks';
import { RateLimitMiddleware } from '../platform/rate-limit/rate-limit.middleware';
import { applyServerLimits } from '../platform/http/http-server-limits';
import { requireDecodableUrl } from '../platform/http/url-encoding';
import { PROBLEM_CODES, PROBLEMS } from '../platform/errors/problem-catalog';
import { RegisterListResponse } from '../status/register-list-response';

/** The MCP endpoint's path (with or without a slash, any query), as the router matches it: without regard to case. */
const MCP_PATH = /^\/api\/public\/v1\/mcp\/?(\?|$)/i;

/** Headers browser code may read from our responses. */
export const EXPOSED_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'X-Request-Id',
  'Mcp-Session-Id',
];

/** Smallest API answer sent compressed (a status page's 55 KB is; a search answer is not). */
const COMPRESS_API_FROM = 16 * 1024;

/** Largest JSON body the /api/v1 endpoints read: their inputs are a few hundred bytes. */
export const API_V1_MAX_BODY = '16kb';
/** …except a bulk watch creation: up to 10,000 rows of about 80 bytes. */
export const WATCHES_BULK_MAX_BODY = '2mb';

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
  // First of all: the request's id, its logger, and its log line (also for requests a
  // middleware below answers: CORS preflights, 429s, unreadable bodies); and its duration for
  // the HTTP histogram, when metrics are served (METRICS_PORT).
  express.use(requestLogging(app.get(ROOT_LOGGER), app.get(HttpMetrics).register()));
  // Compressed when the client takes it (gzip, deflate, br): the pages, their assets and /docs
  // from 1 KiB (/docs loads 2.8 MB of Swagger UI and the OpenAPI document, a fifth of that
  // compressed); API answers from COMPRESS_API_FROM only, since gzip of a 6 KB /registers answer
  // cost a third of its throughput (bench/compression.js) to save a client 4 KB. Never an event
  // stream, which must reach the client as it is written.
  express.use(
    compression({
      filter: (req, res) => {
        if (String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream')) return false;
        const length = Number(res.getHeader('Content-Length') ?? Infinity);
        // originalUrl: a middleware mounted on a prefix (the /registers fast path) sees req.path without it.
        const path = req.originalUrl.split('?')[0];
        if (/^\/api\//i.test(path) && !/\/openapi\.json$/i.test(path) && length < COMPRESS_API_FROM) return false;
        return compression.filter(req, res);
      },
    }),
  );
  // The open read API and the health checks take database connections from a share of their
  // own: requests stuck on a lock elsewhere cannot take them (platform/database/lanes.ts).
  express.use((req: Request, _res: Response, next: NextFunction) =>
    inLane(/^\/(api\/public|health)(\/|$)/i.test(req.path) ? 'public' : 'request', () => withRequestOrigin(req, next)),
  );
  // The read API is open to any origin, without credentials; browsers may read the rate-limit
  // headers. The MCP endpoint also takes the optional API key of its account tools (and shows the
  // challenge of a refused one).
  const readCors: CorsOptions = {
    origin: '*',
    credentials: false,
    methods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
    allowedHeaders: [
      'Content-Type',
      'Accept',
      'MCP-Protocol-Version',
      'Mcp-Session-Id',
      'Last-Event-ID',
      'X-Request-Id',
    ],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 86_400,
  };
  const mcpCors: CorsOptions = {
    ...readCors,
    allowedHeaders: [...(readCors.allowedHeaders as string[]), 'Authorization'],
    exposedHeaders: [...EXPOSED_HEADERS, 'WWW-Authenticate'],
  };
  const publicCors = cors((req, done) => done(null, MCP_PATH.test((req as Request).originalUrl) ? mcpCors : readCors));
  // The account API: browser code may call it from any origin with the key in a header,
  // never with cookies. Its bodies are JSON, read here (the app runs without a global parser).
  const accountCors = cors({
    origin: '*',
    credentials: false,
    methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Accept', 'X-Request-Id'],
    exposedHeaders: [...EXPOSED_HEADERS, 'WWW-Authenticate', 'Location'],
    maxAge: 86_400,
  });
  // An answer is JSON, never sniffed as a page (a search echoes its query back).
  const noSniff: Middleware = (_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  };
  // Account answers hold private data and, once, secrets (an API key, a signing secret): no cache keeps them.
  const noStore: Middleware = (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  };
  // Counted before any routing, as a prefix match: unknown paths, wrong methods and paths
  // that no route can even decode are counted and carry the headers too.
  const rateLimit = app.get(RateLimitMiddleware);
  applyServerLimits(app.getHttpServer(), config, rateLimit);
  const countRequest: Middleware = (req, res, next) => {
    rateLimit
      .use(req, res, next)
      ?.catch((err: unknown) => (err instanceof ApiError ? writeProblem(req, res, err) : next(err)));
  };
  // The plain GET /registers, the most frequent request, answered once counted (RegisterListResponse).
  const registerList = app.get(RegisterListResponse);
  const answerRegisterList: Middleware = (req, res, next) => registerList.answer(req, res, next);
  // Express layers mounted on path prefixes (matched without regard to case, like the routes).
  express.use('/api/public', publicCors);
  express.use('/api/public/v1', noSniff, countRequest, requireDecodableUrl, requireJsonAnswer, answerRegisterList);
  express.use('/api/v1', accountCors, noSniff, noStore, requireDecodableUrl, requireJsonAnswer, requireJsonBody);
  // Bodies parsed once: the bulk watch creation with its own limit, every other /api/v1 body with
  // the small one (a body already read is not read again).
  express.use('/api/v1/watches/bulk', parseJsonBody(WATCHES_BULK_MAX_BODY));
  express.use('/api/v1', parseJsonBody());
  // No global ValidationPipe: every input is read as `unknown` and checked by its controller's
  // zod schema (platform/validation), so the pipe would validate nothing.
  app.enableShutdownHooks();

  const openApi = app.get(OpenApiDocument);
  openApi.document = documentWithWebhookEvents(
    SwaggerModule.createDocument(
      app,
      new DocumentBuilder()
        .setTitle('Registry Lookup API')
        .setDescription(
          [
            `Open, keyless read access to official company registers (${COUNTRY_CODES.join(', ')}), with exact provenance on every record.`,
            '',
            '**Rate limit.** 120 requests per hour per client IP (IPv6: per /64), counted across all /api/public/v1 endpoints. Every response carries `X-RateLimit-Remaining` and `X-RateLimit-Reset` (**seconds until the window resets**, a delta, not an epoch time); over the limit: 429 `rate_limited` with `Retry-After` and `resetAt`.',
            '',
            '**Wrong method.** A method an endpoint does not declare is answered 405 `method_not_allowed` (a problem document, with `Allow`).',
            '',
            '**Accounts, webhooks, simulator** (`/api/v1`, developer preview): authenticated with `Authorization: Bearer <api key>` from a free account (`POST /api/v1/accounts`); not counted in the per-IP limit above, but limited per account (`X-RateLimit-*` headers count the account). The MCP endpoint takes the same key, optionally, for its watch and event tools.',
            '',
            '**Errors** are RFC 9457 problem details (`application/problem+json`) with a machine-readable `code`:',
            ...PROBLEM_CODES.map((c) => `- \`${c}\` (${PROBLEMS[c].status}): ${PROBLEMS[c].description}`),
          ].join('\n'),
        )
        .setVersion(config.apiVersion)
        // Relative: the document is served by the service itself, so /docs works on any address.
        .addServer(config.publicBaseUrl ?? '/')
        .addBearerAuth(
          {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'rl_…',
            description:
              'An API key of a free account (POST /api/v1/accounts), as `Authorization: Bearer rl_…`. The /api/v1 account, webhook and simulator endpoints need one; the MCP endpoint takes one optionally (for its watch and event tools).',
          },
          BEARER_SCHEME,
        )
        .build(),
    ),
  );
  SwaggerModule.setup('docs', app, openApi.document, {
    customSiteTitle: 'Registry Lookup API',
    swaggerOptions: { url: '/api/public/v1/openapi.json' },
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
  });
}

type Middleware = (req: Request, res: Response, next: NextFunction) => void;

/** A `q` parameter that is not an RFC 9110 qvalue (0 to 1, at most three decimals). */
const MALFORMED_WEIGHT = /;\s*q\s*=\s*(?!(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)\s*(?:[,;]|$))/i;

/**
 * The API answers in JSON only: a request whose Accept rules JSON out is a 406 (the error
 * table promises it), not a 200 in a type the client said it cannot read. No Accept, `*\/*`
 * or any JSON type is fine. The MCP endpoint negotiates for itself (JSON or an event stream).
 */
function requireJsonAnswer(req: Request, res: Response, next: NextFunction): void {
  if (req.method === 'OPTIONS' || req.headers.accept === undefined || /\/mcp\/?$/i.test(req.path)) return next();
  // An Accept whose weights cannot be read rules nothing out: RFC 9110 lets a server disregard
  // it, and a client that sent `*/*;q=abc` can read JSON (the parser would take it as q=0).
  if (MALFORMED_WEIGHT.test(req.headers.accept)) return next();
  if (req.accepts(['application/json', 'application/problem+json', 'application/*+json'])) return next();
  writeProblem(
    req,
    res,
    new ApiError(
      'not_acceptable',
      `This endpoint answers in JSON (application/json), which the Accept header (${truncate(req.headers.accept, 100)}) rules out.`,
    ),
  );
}

function truncate(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/**
 * POST, PATCH and PUT bodies of /api/v1 must be JSON: anything else is a 415 here, rather
 * than a body the parser skips and a confusing "field required" later.
 */
function requireJsonBody(req: Request, res: Response, next: NextFunction): void {
  if (!['POST', 'PUT', 'PATCH'].includes(req.method)) return next();
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (hasBody && !req.is(['application/json', '+json'])) {
    return writeProblem(
      req,
      res,
      new ApiError('unsupported_media_type', 'The request body must be JSON (Content-Type: application/json).'),
    );
  }
  next();
}

function isJson(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The JSON body parser of /api/v1, its failures answered here in the contract's shape
 * (Nest would turn a JSON syntax error into a bare 400 and lose which it was).
 */
function parseJsonBody(limit = API_V1_MAX_BODY): (req: Request, res: Response, next: NextFunction) => void {
  const parse = jsonBody({ limit, strict: true });
  return (req, res, next) =>
    parse(req, res, (err?: unknown) => {
      if (!err) return next();
      const type = (err as { type?: string }).type;
      if (type === 'entity.too.large')
        return writeProblem(req, res, new ApiError('payload_too_large', `The request body exceeds ${limit}.`));
      if (type === 'charset.unsupported' || type === 'encoding.unsupported') {
        return writeProblem(
          req,
          res,
          new ApiError('unsupported_media_type', 'The request body must be UTF-8 JSON, without Content-Encoding.'),
        );
      }
      if (type === 'entity.parse.failed' && isJson((err as { body?: unknown }).body)) {
        // JSON, but not an object (`null`, `"x"`, `1`): the strict parser refuses it as a syntax error.
        return writeProblem(req, res, notAnObject());
      }
      const [detail, message] =
        type === 'entity.parse.failed'
          ? ['The request body is not valid JSON.', 'not valid JSON']
          : req.headers['content-encoding']
            ? [
                `The request body could not be read as its Content-Encoding (${String(req.headers['content-encoding']).slice(0, 40)}) says.`,
                'could not be decoded',
              ]
            : ['The request body could not be read.', 'could not be read'];
      writeProblem(
        req,
        res,
        new ApiError('invalid_body', detail, { errors: [{ field: '(body)', code: 'invalid_json', message }] }),
      );
    });
}
