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
    return JSON.parse(text);
  } catch {
    throw UpstreamError.invalidResponse(`${from} sent a body that is not JSON`, status);
  }
}
