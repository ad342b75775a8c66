import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** `rl_` + base64url of 32 random bytes (43 characters). */
const KEY_SHAPE = /^rl_[A-Za-z0-9_-]{43}$/;
/** Stored in clear beside the hash to find the row: `rl_` and 9 characters, about 54 bits. */
const PREFIX_LENGTH = 12;

export interface NewApiKey {
  /** The key itself: shown once, never stored, never logged. */
  key: string;
  prefix: string;
  hash: string;
}

export function newApiKey(): NewApiKey {
  const key = `rl_${randomBytes(32).toString('base64url')}`;
  return { key, prefix: key.slice(0, PREFIX_LENGTH), hash: hashKey(key) };
}

export function isApiKeyShaped(value: string): boolean {
  return KEY_SHAPE.test(value);
}

export function keyPrefix(key: string): string {
  return key.slice(0, PREFIX_LENGTH);
}

/** SHA-256 is enough: the key is 256 random bits, not a password to stretch. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function keyMatches(key: string, storedHash: string): boolean {
  const a = Buffer.from(hashKey(key), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
