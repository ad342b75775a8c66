/** Calls to the /api/v1 event-side API of a running app, as a customer would make them. */
export interface ApiAnswer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(baseUrl + path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

export interface Customer {
  key: string;
  accountId: string;
  call: (method: string, path: string, body?: unknown) => Promise<ApiAnswer>;
}

/** A new free account and a caller bound to its key. */
export async function signUp(
  baseUrl: string,
  email = `dev+${Math.random().toString(36).slice(2)}@example.com`,
): Promise<Customer> {
  const res = await call(baseUrl, 'POST', '/api/v1/accounts', { body: { email } });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${res.text}`);
  const key = res.body.apiKey as string;
  return {
    key,
    accountId: res.body.account.id,
    call: (method, path, body) => call(baseUrl, method, path, { key, body }),
  };
}

/** Polls `read` until `done` holds on its result. */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 20_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value).slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
