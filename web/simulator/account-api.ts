import { ApiAnswer, send } from '../shared/api';

/** The event side of the API: authenticated with the account's key. */
export const ACCOUNT_API = '/api/v1';
const STORAGE_KEY = 'registry-lookup:api-key';

/**
 * The API key is kept in this browser's local storage (never a cookie, never the URL) and
 * leaves it only in the Authorization header of the page's own calls to this origin.
 */
export const keyStore = {
  read(): string | null {
    try {
      return localStorage.getItem(STORAGE_KEY);
    } catch {
      return null;
    }
  },
  /** false when the browser refuses storage (the key then lasts as long as the page). */
  save(key: string): boolean {
    try {
      localStorage.setItem(STORAGE_KEY, key);
      return true;
    } catch {
      return false;
    }
  },
  forget(): void {
    try {
      localStorage.removeItem(STORAGE_KEY);
    } catch {
      // nothing stored
    }
  },
};

/** One call to /api/v1. Never throws (see send). */
export function callAccountApi<T>(
  method: 'GET' | 'POST' | 'PATCH',
  path: string,
  key: string | null,
  body?: unknown,
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (key) headers.Authorization = `Bearer ${key}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return send<T>(ACCOUNT_API + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'omit',
    cache: 'no-store',
  });
}
