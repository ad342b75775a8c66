import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger as Pino } from 'pino';
import { Store, storage } from 'nestjs-pino/storage';
import { assignRequestId } from './request-id';

/** Takes each answered request's duration (HttpMetrics). */
export interface DurationRecorder {
  record(req: IncomingMessage, statusCode: number, seconds: number): void;
}

/**
 * Runs first for every request: gives it its id (request-id.ts), makes the request's logger
 * what Nest's Logger writes through while the request is handled (so those lines carry
 * req.id), and writes one line when the response is done — "request completed" (info),
 * "request answered unavailable" (warn) for a 502, 503 or 504 (a register or the database did
 * not answer), "request errored" (error) for another 5xx — with the same fields as pino-http wrote:
 * req { id, method, path }, res { statusCode }, responseTime. /health/ probes are not logged.
 *
 * The same listener hands every request's duration to `durations` (the HTTP histogram, when
 * metrics are served), /health/ included: a second listener of its own per request cost more
 * than the histogram itself (bench/metrics.js).
 */
export function requestLogging(
  root: Pino,
  durations?: DurationRecorder,
): (req: IncomingMessage & { id?: unknown; originalUrl?: string }, res: ServerResponse, next: () => void) => void {
  return (req, res, next) => {
    const id = assignRequestId(req, res);
    const url = req.originalUrl ?? req.url ?? '';
    const q = url.indexOf('?');
    const bindings = { req: { id, method: req.method, path: q === -1 ? url : url.slice(0, q) } };
    const logged = !url.startsWith('/health/');
    if (logged || durations) {
      const start = performance.now();
      // 'close' follows 'finish', and also comes alone when the client went away first.
      res.once('close', () => {
        const elapsedMs = performance.now() - start;
        const statusCode = res.statusCode;
        durations?.record(req, statusCode, elapsedMs / 1000);
        if (!logged) return;
        const responseTime = Math.round(elapsedMs);
        if (statusCode >= 502 && statusCode <= 504) {
          // A register or the database did not answer, and the answer says so: the status page
          // and the metrics follow that, and a register that is down must not flood the log with errors.
          if (root.isLevelEnabled('warn'))
            root.warn({ ...bindings, res: { statusCode }, responseTime }, 'request answered unavailable');
        } else if (statusCode >= 500) {
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
    storage.run(new Store(root.child(bindings)), next);
  };
}
