import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { RegistersService } from './registers.service';

/** The path RegisterListResponse.answer answers, as Express routes it in the common spelling. */
const REGISTERS_PATH = '/api/public/v1/registers';

/**
 * The unfiltered register list as a response: its bytes and ETag, made once per change of the
 * list. `answer` serves the plain GET (or HEAD) /registers, the most frequent request, ahead of
 * Nest's router (http-app.ts, after the log line, CORS and rate limit), as measured in
 * docs/benchmarks.md ("The ordinary path"). Anything else goes on to RegistersController.
 */
@Injectable()
export class RegisterListResponse {
  /** The last JSON served, its bytes and its ETag. */
  private tagged?: { json: string; body: Buffer; etag: string | undefined };

  constructor(private readonly registers: RegistersService) {}

  answer(req: Request, res: Response, next: NextFunction): void {
    // A query, or a conditional request (Express's send answers those with its 304): the route's.
    const plain =
      (req.method === 'GET' || req.method === 'HEAD') &&
      req.baseUrl + req.path === REGISTERS_PATH &&
      !req.url.includes('?') &&
      req.headers['if-none-match'] === undefined &&
      req.headers['if-modified-since'] === undefined;
    const json = plain ? this.registers.listJsonIfFresh() : undefined;
    if (json === undefined) return next();
    const body = this.withHeaders(json, res);
    res.setHeader('Content-Length', body.length);
    // What Express's send would do for an unconditional GET or HEAD, without its checks (Node
    // leaves the body out of a HEAD's answer).
    res.end(body);
  }

  /** Sends the unfiltered list, whose JSON is `json`, through Express (its 304 to a matching If-None-Match). */
  send(json: string, res: Response): void {
    // Sent as bytes: Nest would serialize a Buffer as JSON, and Express would copy a string
    // into a new buffer and re-parse the Content-Type for its charset on every request.
    res.send(this.withHeaders(json, res));
  }

  /** Sets the list's Content-Type and ETag (the one Express would compute from these bytes); its bytes. */
  private withHeaders(json: string, res: Response): Buffer {
    if (this.tagged?.json !== json) {
      const body = Buffer.from(json, 'utf8');
      const etagOf = res.app.get('etag fn') as ((body: Buffer) => string) | undefined;
      this.tagged = { json, body, etag: etagOf?.(body) };
    }
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    if (this.tagged.etag) res.setHeader('ETag', this.tagged.etag);
    return this.tagged.body;
  }
}
