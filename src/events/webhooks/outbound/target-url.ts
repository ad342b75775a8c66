import { isIpLiteral } from './address-guard';

/** Why a URL cannot be a webhook target: malformed (400) or not allowed (422). */
export class TargetUrlError extends Error {
  constructor(
    readonly kind: 'invalid' | 'not_allowed',
    message: string,
  ) {
    super(message);
  }
}

export const MAX_URL_LENGTH = 2048;

export interface TargetUrl {
  url: URL;
  /** The host as the connection will use it: without IPv6 brackets and without a trailing dot. */
  host: string;
  isIp: boolean;
}

/**
 * Parses a webhook URL the way the connection will read it (WHATWG URL: `2130706433`,
 * `0x7f.1`, `127.1` and `0177.0.0.1` all become 127.0.0.1; IPv6 is normalised), and refuses
 * what can never be a target: other schemes than http and https, credentials in the URL
 * (`https://trusted.example@10.0.0.1/` tricks), control characters and spaces (which the URL
 * parser would silently drop).
 */
export function parseTargetUrl(raw: string): TargetUrl {
  if (raw.length > MAX_URL_LENGTH)
    throw new TargetUrlError('invalid', `the URL is longer than ${MAX_URL_LENGTH} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f-\u009f\\]/.test(raw))
    throw new TargetUrlError('invalid', 'the URL contains spaces, backslashes or control characters');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    const port = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*:(\d+)(?:[/?#]|$)/i.exec(raw)?.[1];
    if (port && Number(port) > 65_535)
      throw new TargetUrlError('invalid', `the port ${port.slice(0, 10)} is out of range: a port is 1 to 65535`);
    throw new TargetUrlError('invalid', 'not an absolute URL (e.g. https://example.com/webhooks)');
  }
  // Port 0 is parsed, but nothing can be connected to on it.
  if (url.port === '0') throw new TargetUrlError('invalid', 'the port 0 is out of range: a port is 1 to 65535');
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TargetUrlError(
      'not_allowed',
      `the scheme ${url.protocol.slice(0, 20)} is not allowed: only http and https`,
    );
  }
  // Also an empty userinfo (`http://@host/`): the authority as written holds no `@` at all.
  const authority = /^[a-z][a-z0-9+.-]*:\/*([^/?#]*)/i.exec(raw)?.[1] ?? '';
  if (url.username || url.password || authority.includes('@')) {
    throw new TargetUrlError('not_allowed', 'a URL with credentials (user:password@) is not allowed');
  }
  if (!url.hostname) throw new TargetUrlError('invalid', 'the URL has no host');
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname.replace(/\.$/, '');
  if (!host) throw new TargetUrlError('invalid', 'the URL has no host');
  return { url, host, isIp: isIpLiteral(url.hostname) };
}
