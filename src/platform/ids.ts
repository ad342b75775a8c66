import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A random, URL-safe identifier with a type prefix (`we_…`, `evt_…`, `msg_…`): 22 base-62
 * characters, about 131 bits, so ids can be neither guessed nor enumerated. The prefix says
 * what an id names when it turns up in a log or a support request.
 */
export function randomId(prefix: string): string {
  // 256 is not a multiple of 62: drop the bytes past the last whole multiple (no modulo bias).
  let out = '';
  while (out.length < 22) {
    for (const b of randomBytes(32)) {
      if (b < 248 && out.length < 22) out += ALPHABET[b % 62];
    }
  }
  return `${prefix}_${out}`;
}

/** The id shapes the API accepts in paths: anything else is not one of ours (404 without a query). */
export function isIdOf(prefix: string, value: unknown): value is string {
  return typeof value === 'string' && new RegExp(`^${prefix}_[0-9A-Za-z]{22}$`).test(value);
}
