import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type Logger as Pino } from 'pino';
import { Store, storage } from 'nestjs-pino/storage';
import { assignRequestId } from './request-id';

/** What a request's log lines say of it. */
interface RequestBindings {
  id: string;
  method: string | undefined;
  path: string;
}

/**
 * nestjs-pino's per-request store (the shape of its Store) whose logger — the root's child
 * bound to the request — is made on first use: most requests log nothing but their completion
 * line, which needs no child.
 */
class LazyRequestStore {
  private child?: Pino;

  constructor(
    private readonly root: Pino,
    private readonly bindings: { req: RequestBindings },
  ) {}

  get logger(): Pino {
    return (this.child ??= this.root.child(this.bindings));
  }

  set logger(logger: Pino) {
    // PinoLogger.assign() replaces the request's logger with a child of it.
    this.child = logger;
  }
}

/**
 * Runs first for every request: gives it its id (request-id.ts), makes the request's logger
 * what Nest's Logger writes through while the request is handled (so those lines carry
 * req.id), and writes one line when the response is done — "request completed" (info), or
 * "request errored" (error) for a 5xx — with the same fields as pino-http wrote:
 * req { id, method, path }, res { statusCode }, responseTime. /health/ probes are not logged.
 */
export function requestLogging(
  root: Pino,
): (req: IncomingMessage & { id?: unknown; originalUrl?: string }, res: ServerResponse, next: () => void) => void {
  const completed = completedLine(root);
  return (req, res, next) => {
    const id = assignRequestId(req, res);
    const url = req.originalUrl ?? req.url ?? '';
    const q = url.indexOf('?');
    const bindings = { req: { id, method: req.method, path: q === -1 ? url : url.slice(0, q) } };
    if (!url.startsWith('/health/')) {
      const start = Date.now();
      // 'close' follows 'finish', and also comes alone when the client went away first.
      res.once('close', () => {
        const responseTime = Date.now() - start;
        const statusCode = res.statusCode;
        if (statusCode >= 500) {
          if (root.isLevelEnabled('error'))
            root.error(
              {
                ...bindings,
                res: { statusCode },
                err: new Error(`failed with status code ${statusCode}`),
                responseTime,
              },
              'request errored',
            );
        } else if (root.isLevelEnabled('info')) {
          completed(bindings.req, statusCode, responseTime);
        }
      });
    }
    storage.run(new LazyRequestStore(root, bindings) as unknown as Store, next);
  };
}

/**
 * Writes the "request completed" line, the one line of almost every request, as the very
 * string `root.info({ req, res: { statusCode }, responseTime }, 'request completed')` writes —
 * level, time, the root's bindings, the fields, the message — but put together here: pino's
 * general path (serializers, redaction of paths this line never has) cost more than the rest
 * of the line's work. The root's own options for these lines are pino's defaults (numeric
 * level, epoch-millisecond time, `msg`), which logging.module.ts keeps.
 */
function completedLine(root: Pino): (req: RequestBindings, statusCode: number, responseTime: number) => void {
  const stream = (root as unknown as Record<symbol, { write(line: string): void }>)[pino.symbols.streamSym];
  const prefix = `{"level":${pino.levels.values.info},"time":`;
  return (req, statusCode, responseTime) => {
    // Node's parser always gives a method; pino would leave an undefined one out.
    if (req.method === undefined) return root.info({ req, res: { statusCode }, responseTime }, 'request completed');
    const bindings = (root as unknown as Record<symbol, string>)[pino.symbols.chindingsSym];
    stream.write(
      `${prefix}${Date.now()}${bindings},"req":{"id":${JSON.stringify(req.id)},"method":${JSON.stringify(req.method)},"path":${JSON.stringify(req.path)}},"res":{"statusCode":${statusCode}},"responseTime":${responseTime},"msg":"request completed"}\n`,
    );
  };
}
