import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../errors/api-error';
import { writeProblem } from '../errors/problem-details.filter';

/** Where a request's URL holds text that is not percent-encoded UTF-8. */
export interface UndecodableUrl {
  /** The path, or the query parameter whose name or value it is (its raw name when that is the part). */
  where: { path: true } | { parameter: string };
  /** The part as sent, shortened. */
  raw: string;
}

const SHOWN = 60;

/**
 * The first part of `url` (a request's path and query, as sent) that does not decode: a `%`
 * not followed by two hex digits, or escapes whose bytes are not UTF-8 (`%FF`, the overlong
 * `%C0%AF`). Node's query parser would turn those into U+FFFD or keep them literally, and a
 * search would then answer a question nobody asked.
 */
export function undecodableUrl(url: string): UndecodableUrl | null {
  const mark = url.indexOf('?');
  const path = mark === -1 ? url : url.slice(0, mark);
  if (!decodes(path)) return { where: { path: true }, raw: shorten(firstBadSegment(path)) };
  if (mark === -1) return null;
  for (const pair of url.slice(mark + 1).split('&')) {
    const eq = pair.indexOf('=');
    // A "+" (a space) decodes like any character: only the escapes can fail, so it is left as it is.
    const name = eq === -1 ? pair : pair.slice(0, eq);
    const value = eq === -1 ? '' : pair.slice(eq + 1);
    if (!decodes(name)) return { where: { parameter: shorten(name) }, raw: shorten(name) };
    if (!decodes(value))
      return { where: { parameter: decodeURIComponent(name.split('+').join(' ')) }, raw: shorten(value) };
  }
  return null;
}

/**
 * Refuses, in the contract's shape, a request whose URL does not decode (see undecodableUrl):
 * the query's parameter by name (`q` as invalid_query, the search's own code), or the path.
 */
export function requireDecodableUrl(req: Request, res: Response, next: NextFunction): void {
  const bad = undecodableUrl(req.originalUrl);
  if (!bad) return next();
  const how =
    'is not valid percent-encoded UTF-8: a "%" starts an escape of two hex digits (%25 for "%" itself), and the escaped bytes must form UTF-8 characters';
  if ('path' in bad.where) {
    writeProblem(req, res, ApiError.invalidParameter('path', `The path segment "${bad.raw}" ${how}.`));
    return;
  }
  const field = bad.where.parameter;
  const message = `${shorten(field)} ("${bad.raw}") ${how}.`;
  writeProblem(
    req,
    res,
    field === 'q'
      ? new ApiError('invalid_query', message, { errors: [{ field, code: 'invalid_query', message }] })
      : ApiError.invalidParameter(shorten(field), message),
  );
}

function decodes(s: string): boolean {
  if (!s.includes('%')) return true;
  try {
    decodeURIComponent(s);
    return true;
  } catch {
    return false;
  }
}

function firstBadSegment(path: string): string {
  return path.split('/').find((segment) => !decodes(segment)) ?? path;
}

function shorten(s: string): string {
  return s.length > SHOWN ? `${s.slice(0, SHOWN)}…` : s;
}
