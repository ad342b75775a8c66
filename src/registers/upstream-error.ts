import type { AxiosError } from 'axios';

/** Why a register read failed, as stored with probes and logged with searches. */
export type UpstreamErrorClass =
  | 'timeout'
  | 'dns'
  | 'connection_refused'
  | 'connection_reset'
  | 'network'
  | 'tls'
  | 'http_4xx'
  | 'http_5xx'
  | 'rate_limited'
  | 'unauthorized'
  | 'invalid_response';

/** The register failed or answered with something the connector cannot understand. */
export class UpstreamError extends Error {
  constructor(
    readonly errorClass: UpstreamErrorClass,
    message: string,
    readonly httpStatus: number | null = null,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }

  /** A well-formed HTTP answer whose body does not have the shape the connector needs. */
  static invalidResponse(message: string, httpStatus: number | null = null): UpstreamError {
    return new UpstreamError('invalid_response', message, httpStatus);
  }

  /** Turns whatever a request threw into an UpstreamError, without leaking credentials. */
  static from(err: unknown): UpstreamError {
    if (err instanceof UpstreamError) return err;
    if (isAxiosError(err)) {
      const status = err.response?.status ?? null;
      if (status !== null) {
        if (status === 429) return new UpstreamError('rate_limited', `register answered HTTP 429`, status);
        if (status === 401 || status === 403)
          return new UpstreamError('unauthorized', `register answered HTTP ${status}`, status);
        if (status >= 500) return new UpstreamError('http_5xx', `register answered HTTP ${status}`, status);
        return new UpstreamError('http_4xx', `register answered HTTP ${status}`, status);
      }
      const code = err.code ?? (err.cause as NodeJS.ErrnoException | undefined)?.code;
      switch (code) {
        case 'ECONNABORTED':
        case 'ETIMEDOUT':
        case 'ERR_CANCELED':
          return new UpstreamError('timeout', 'register did not answer in time');
        case 'ENOTFOUND':
        case 'EAI_AGAIN':
          return new UpstreamError('dns', 'register host name could not be resolved');
        case 'ECONNREFUSED':
          return new UpstreamError('connection_refused', 'register refused the connection');
        case 'ECONNRESET':
        case 'EPIPE':
          return new UpstreamError('connection_reset', 'register closed the connection');
        case 'ERR_BAD_RESPONSE':
          return new UpstreamError('invalid_response', 'register sent a response that could not be read');
        default:
          if (code && /CERT|SSL|TLS/.test(code)) return new UpstreamError('tls', `TLS failure (${code})`);
          if (code === 'ENETUNREACH' || code === 'EHOSTUNREACH')
            return new UpstreamError('network', `network unreachable (${code})`);
          return new UpstreamError('network', `request failed${code ? ` (${code})` : ''}`);
      }
    }
    if (err instanceof Error && err.name === 'BottleneckError') {
      return new UpstreamError('rate_limited', 'too many reads queued for this register; not sent');
    }
    if (err instanceof SyntaxError)
      return new UpstreamError('invalid_response', 'register sent a body that is not valid JSON');
    return new UpstreamError('network', 'request failed');
  }
}

/**
 * What axios's own `isAxiosError` checks, without loading axios where no request is made (the
 * dataset import reads the parsers that throw UpstreamError, and makes none).
 */
function isAxiosError(err: unknown): err is AxiosError {
  return typeof err === 'object' && err !== null && (err as { isAxiosError?: unknown }).isAxiosError === true;
}
