import type { AxiosResponse } from 'axios';
import { UpstreamError } from './upstream-error';

/**
 * The body of a JSON answer as axios parsed it. axios leaves a body that is not JSON (an HTML
 * error page, a maintenance notice) as a string: that is an invalid response, not a record.
 */
export function jsonBody(res: AxiosResponse, from: string): unknown {
  if (res.data === null || typeof res.data !== 'object') throw UpstreamError.invalidResponse(`${from} sent a body that is not JSON`, res.status);
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
