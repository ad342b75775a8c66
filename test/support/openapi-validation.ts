import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { NextFunction, Request, Response } from 'express';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/** One response as the client received it. */
export interface RecordedResponse {
  method: string;
  path: string;
  status: number;
  contentType: string;
  headers: Record<string, string | string[] | number | undefined>;
  body: Buffer;
}

/** Express middleware (first of all) that keeps a copy of every response. */
export function recordResponses(into: RecordedResponse[]) {
  return (req: Request, res: Response, next: NextFunction) => {
    const chunks: Buffer[] = [];
    const write = res.write.bind(res) as (...a: unknown[]) => boolean;
    const end = res.end.bind(res) as (...a: unknown[]) => Response;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      chunks.push(
        Buffer.isBuffer(chunk)
          ? chunk
          : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'),
      );
    };
    (res as unknown as { write: (...a: unknown[]) => boolean }).write = (chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return write(chunk, ...rest);
    };
    (res as unknown as { end: (...a: unknown[]) => Response }).end = (chunk?: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      into.push({
        method: req.method,
        path: (req.originalUrl ?? req.url).split('?')[0],
        status: res.statusCode,
        contentType: String(res.getHeader('content-type') ?? ''),
        headers: res.getHeaders() as RecordedResponse['headers'],
        body: decoded(Buffer.concat(chunks), res.getHeader('content-encoding')),
      });
      return end(chunk, ...rest);
    };
    next();
  };
}

/** The body as the client reads it: the compression middleware writes it encoded. */
function decoded(body: Buffer, encoding: unknown): Buffer {
  if (body.length === 0) return body;
  if (encoding === 'gzip') return gunzipSync(body);
  if (encoding === 'br') return brotliDecompressSync(body);
  if (encoding === 'deflate') return inflateSync(body);
  return body;
}

type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/**
 * Checks responses against the OpenAPI document the app serves, whatever its paths: the
 * operation (path template and method), the status (declared, or NXX, or default), the media
 * type, the body against its schema, and the rate-limit headers. A method the document does
 * not declare on a known path, and a path it does not know under /api/public, must answer a
 * problem document.
 */
export class OpenApiResponseValidator {
  private readonly ajv: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly paths: Array<{ template: string; pattern: RegExp; literal: number }>;

  constructor(private readonly doc: Json) {
    this.ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    // OpenAPI 3.0 schemas; the doc's own refs (#/components/schemas/…) resolve inside it.
    this.ajv.addSchema({ ...doc, $id: 'openapi' });
    this.paths = Object.keys(doc.paths ?? {}).map((template) => ({
      template,
      pattern: new RegExp(
        `^${template
          .split('/')
          .map((s) => (/^\{.+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
          .join('/')}$`,
      ),
      literal: template.split('/').filter((s) => !/^\{.+\}$/.test(s)).length,
    }));
  }

  /** Problems found in one response; empty when it matches the document. */
  check(r: RecordedResponse): string[] {
    if (r.path.startsWith('/docs')) return []; // the rendered pages of the document
    const where = `${r.method} ${r.path} → ${r.status}`;
    const candidates = this.paths
      .filter((p) => p.pattern.test(safeDecode(r.path)))
      .sort((a, b) => b.literal - a.literal);
    const item = candidates[0] ? this.doc.paths[candidates[0].template] : undefined;
    const method = r.method.toLowerCase();
    if (method === 'options') return []; // CORS preflights
    const op = item?.[method === 'head' ? 'get' : method];
    if (!op) {
      if (!r.path.startsWith('/api/public') && !item) return [];
      if (method === 'head') return []; // no body reaches the client
      // A method the path does not declare: the 405 the path declares for its other methods, or a problem document.
      const declared405 =
        item && METHODS.map((m) => [m, item[m]?.responses?.['405']] as const).find(([, resp]) => resp?.content);
      if (declared405 && r.status === 405) {
        const media = Object.keys(declared405[1].content)[0];
        return this.checkSchema(
          where,
          `openapi#/paths/${escape(candidates[0].template)}/${declared405[0]}/responses/405/content/${escape(media)}/schema`,
          r,
          media,
        );
      }
      return this.checkSchema(where, 'openapi#/components/schemas/ProblemDetailsDto', r, 'application/problem+json');
    }
    const pointer = `openapi#/paths/${escape(candidates[0].template)}/${method === 'head' ? 'get' : method}/responses`;
    const code = String(r.status);
    const key = op.responses?.[code]
      ? code
      : op.responses?.[`${code[0]}XX`]
        ? `${code[0]}XX`
        : op.responses?.default
          ? 'default'
          : undefined;
    if (!key)
      return [`${where}: status ${code} not declared (declared: ${Object.keys(op.responses ?? {}).join(', ')})`];
    const response = op.responses[key] as Json;
    const problems: string[] = [];
    if (
      r.path.startsWith('/api/public/v1') &&
      r.headers['x-ratelimit-remaining'] !== undefined &&
      !response.headers?.['X-RateLimit-Remaining']
    ) {
      problems.push(`${where}: X-RateLimit-Remaining sent but not declared`);
    }
    for (const [name, header] of Object.entries<Json>(response.headers ?? {})) {
      const value = r.headers[name.toLowerCase()];
      if (header.required && value === undefined)
        problems.push(`${where}: header ${name} declared required but absent`);
      if (value !== undefined && header.schema?.type === 'integer' && !/^\d+$/.test(String(value)))
        problems.push(`${where}: header ${name}=${value} is not an integer`);
    }
    if (method === 'head' || r.body.length === 0) return problems;
    const media = r.contentType.split(';')[0].trim();
    const content = response.content as Json | undefined;
    if (!content) return [...problems, `${where}: a ${media} body, but the response declares no content`];
    const declared = content[media] ? media : undefined;
    if (!declared)
      return [...problems, `${where}: media type ${media} not declared (declared: ${Object.keys(content).join(', ')})`];
    if (!content[declared].schema) return problems;
    return [
      ...problems,
      ...this.checkSchema(where, `${pointer}/${escape(key)}/content/${escape(declared)}/schema`, r, declared),
    ];
  }

  private checkSchema(where: string, ref: string, r: RecordedResponse, media: string): string[] {
    if (!r.contentType.startsWith(media)) return [`${where}: ${r.contentType || 'no content type'}, expected ${media}`];
    let body: unknown;
    try {
      body = JSON.parse(r.body.toString('utf8'));
    } catch {
      return [`${where}: the body is not JSON`];
    }
    let validate = this.compiled.get(ref);
    if (!validate) this.compiled.set(ref, (validate = this.ajv.compile({ $ref: ref })));
    if (validate(body)) return [];
    return [`${where}: ${this.ajv.errorsText(validate.errors, { separator: '; ' }).slice(0, 500)}`];
  }
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1').replace(/\{/g, '%7B').replace(/\}/g, '%7D');
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path).replace(/\/+$/, '') || '/';
  } catch {
    return path;
  }
}
