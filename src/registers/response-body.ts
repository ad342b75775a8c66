import type { AxiosResponse } from 'axios';
import { UpstreamError } from './upstream-error';

/**
 * The statuses a connector reads itself (axios `validateStatus`): any success, and 404, which
 * a register answers for a number or a search it does not have. Anything else is an error.
 */
export function answeredOrNotFound(status: number): boolean {
  return (status >= 200 && status < 300) || status === 404;
}

/**
 * The body of a JSON answer as axios parsed it. axios leaves a body that is not JSON (an HTML
 * error page, a maintenance notice) as a string: that is an invalid response, not a record.
 */
export function jsonBody(res: AxiosResponse, from: string): unknown {
  if (res.data === null || typeof res.data !== 'object')
    throw UpstreamError.invalidResponse(`${from} sent a body that is not JSON`, res.status);
  return res.data;
}

/** A body read as text (JSONP, or a client that parses itself), parsed as JSON. */
export function parseJsonText(text: string, status: number, from: string): unknown {
  try {
    // After parsing: a NUL or a lone surrogate sent as an escape only exists once parsed.
    return storableJson(JSON.parse(text) as unknown);
  } catch {
    throw UpstreamError.invalidResponse(`${from} sent a body that is not JSON`, status);
  }
}

/**
 * A register's answer as Postgres can keep it: without U+0000, which no register means and
 * which text and jsonb cannot hold, and with each lone surrogate (a `\ud800` escape without its
 * pair), which jsonb refuses, read as U+FFFD. A record holding either could be shown but never
 * kept (a watch's baseline, a change). Plain objects and arrays are cleaned in place; other
 * values (a stream, bytes) pass.
 */
export function storableJson<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return storableString(value) as T;
  if (value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = storableJson(value[i] as unknown, depth + 1);
    return value;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const clean = storableJson(record[key], depth + 1);
    const storableKey = storableString(key);
    if (storableKey !== key) {
      delete record[key];
      record[storableKey] = clean;
    } else record[key] = clean;
  }
  return value;
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function storableString(text: string): string {
  const withoutNul = text.includes('\u0000') ? text.split('\u0000').join('') : text;
  return withoutNul.replace(LONE_SURROGATE, '\uFFFD');
}
