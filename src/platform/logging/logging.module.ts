import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import pino, { type Logger as Pino } from 'pino';
import { AppConfig } from '../config/app-config';

/** The process's root pino logger: the HTTP request logging (request-logging.ts) writes through it. */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

/**
 * Structured JSON logs (pino). Each HTTP request's id (request-id.ts) is on its log lines and
 * in problem documents. Only method, path and status are logged of a request: no headers, so
 * no credentials; register credentials never reach a log line.
 *
 * nestjs-pino gives Nest's Logger its pino backend and the per-request logger (through its
 * AsyncLocalStorage); the request line itself is written by request-logging.ts rather than by
 * pino-http, which built a child logger, serialized, for every request, logged or not.
 */
@Module({})
export class LoggingModule {
  static forConfig(config: AppConfig): DynamicModule {
    const root = rootLogger(config);
    return {
      module: LoggingModule,
      global: true,
      // useExisting with no routes: nestjs-pino adds no middleware of its own (request-logging.ts binds the request's logger).
      imports: [LoggerModule.forRoot({ pinoHttp: { logger: root }, useExisting: true, forRoutes: [] })],
      providers: [{ provide: ROOT_LOGGER, useValue: root }],
      exports: [ROOT_LOGGER],
    };
  }
}

/** What pino-http made of the same options: the same serializers (wrapped the same way), redaction and base. */
export function rootLogger(
  config: Pick<AppConfig, 'logLevel' | 'role'>,
  destination: pino.DestinationStream = pino.destination(1),
): Pino {
  const std = pino.stdSerializers;
  return pino(
    {
      level: config.logLevel,
      base: { service: 'registry-lookup', role: config.role },
      serializers: {
        // A request or response object logged as such (request-logging.ts passes these already serialized).
        req: (req: unknown) =>
          isMessage(req)
            ? std.wrapRequestSerializer((r) => ({ id: r.id, method: r.method, path: r.url.split('?')[0] }) as never)(
                req as never,
              )
            : req,
        res: (res: unknown) => (isMessage(res) ? { statusCode: (res as { statusCode: number }).statusCode } : res),
        err: std.wrapErrorSerializer(
          (err) => ({ type: (err as unknown as Error).name, message: err.message, stack: err.stack }) as never,
        ),
      },
      redact: { paths: ['req.headers', 'config.auth', 'config.headers', '*.password', '*.apiKey'], remove: true },
    },
    destination,
  );
}

function isMessage(x: unknown): boolean {
  return typeof x === 'object' && x !== null && 'socket' in x;
}
