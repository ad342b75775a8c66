import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { AppConfig } from '../config/app-config';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Structured JSON logs (pino). Each HTTP request gets an id — the caller's X-Request-Id when
 * it is a sane token, otherwise a fresh UUID — echoed in the X-Request-Id response header and
 * in problem documents. Only method, path and status are logged of a request: no headers, so
 * no credentials; register credentials never reach a log line.
 */
@Module({})
export class LoggingModule {
  static forConfig(config: AppConfig): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: {
            level: config.logLevel,
            base: { service: 'registry-lookup', role: config.role },
            genReqId: (req: IncomingMessage, res: ServerResponse) => {
              const incoming = req.headers['x-request-id'];
              const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
              res.setHeader('X-Request-Id', id);
              return id;
            },
            serializers: {
              req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, path: req.url.split('?')[0] }),
              res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
              err: (err: Error) => ({ type: err.name, message: err.message, stack: err.stack }),
            },
            redact: { paths: ['req.headers', 'config.auth', 'config.headers', '*.password', '*.apiKey'], remove: true },
            customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'info'),
            autoLogging: { ignore: (req) => (req.url ?? '').startsWith('/health/') },
          },
        }),
      ],
    };
  }
}
