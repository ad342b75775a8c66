import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger as Pino } from 'pino';
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
          root.info({ ...bindings, res: { statusCode }, responseTime }, 'request completed');
        }
      });
    }
    storage.run(new LazyRequestStore(root, bindings) as unknown as Store, next);
  };
}
