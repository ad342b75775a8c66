import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks 1.0 signing (https://www.standardwebhooks.com): the receiver checks
 * `webhook-signature` with the endpoint's secret over `{webhook-id}.{webhook-timestamp}.{body}`,
 * e.g. with the `standardwebhooks` npm package.
 */
const SECRET_PREFIX = 'whsec_';

/** A new endpoint secret: `whsec_` + base64 of 32 random bytes (the spec allows 24–64). */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** One `v1,<base64 HMAC-SHA256>` signature entry. */
export function sign(secret: string, messageId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  const mac = createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/**
 * The `webhook-signature` header: one entry per secret, space-separated. During a rotation
 * both the new and the previous secret sign, so a receiver that has either verifies.
 */
export function signatureHeader(
  secrets: readonly string[],
  messageId: string,
  timestamp: number,
  body: string,
): string {
  return secrets.map((s) => sign(s, messageId, timestamp, body)).join(' ');
}
