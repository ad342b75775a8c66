import type { Problem } from './api-types';
import { duration, plural } from './format';

export const API = '/api/public/v1';

export type ApiAnswer<T> =
  | { ok: true; status: number; body: T }
  | { ok: false; status: number; problem: Problem | null; retryAfterSeconds: number | null };

/**
 * GET on the public API, as any client does. Never throws: a failure is an answer with
 * ok false (status 0 when the service could not be reached). Every answer updates the
 * visible count of requests left.
 */
export function getJson<T>(path: string): Promise<ApiAnswer<T>> {
  return send<T>(API + path, { headers: { Accept: 'application/json' } }, showQuota);
}

/** One request, its answer read as JSON. Never throws (status 0: the service could not be reached). */
export async function send<T>(
  url: string,
  init: RequestInit,
  onHeaders?: (headers: Headers) => void,
): Promise<ApiAnswer<T>> {
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch {
    return { ok: false, status: 0, problem: null, retryAfterSeconds: null };
  }
  onHeaders?.(res.headers);
  const body: unknown = await res.json().catch(() => null);
  if (res.ok && body !== null) return { ok: true, status: res.status, body: body as T };
  const retryAfter = Number(res.headers.get('Retry-After') ?? res.headers.get('X-RateLimit-Reset'));
  return {
    ok: false,
    status: res.status,
    problem: isProblem(body) ? body : null,
    retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
  };
}

function isProblem(body: unknown): body is Problem {
  return typeof body === 'object' && body !== null && typeof (body as Problem).code === 'string';
}

/** "118 requests left this hour", from the X-RateLimit-* headers of the last answer. */
function showQuota(headers: Headers): void {
  const el = document.getElementById('quota');
  const remaining = headers.get('X-RateLimit-Remaining');
  if (!el || remaining === null || !/^\d+$/.test(remaining)) return;
  const left = Number(remaining);
  const reset = Number(headers.get('X-RateLimit-Reset'));
  if (left > 1_000_000) el.textContent = 'No request limit applies to you';
  else if (left === 0 && reset > 0)
    el.textContent = `No requests left this hour: the count resets in ${duration(reset)}`;
  else el.textContent = `${plural(left, 'request')} left this hour`;
}
