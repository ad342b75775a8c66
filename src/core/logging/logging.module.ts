import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { AppConfig } from '../config/app-config';
import { assignRequestId } from './request-id';

/**
 * Structured JSON logs (pino). Each HTTP request's id (request-id.ts) is on its log lines and
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
            genReqId: assignRequestId,
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
