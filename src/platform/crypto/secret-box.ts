import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** What a sealed value starts with; anything else is a value stored before sealing (opened as is). */
const SEALED = 'enc:v1:';

/**
 * Secrets at rest (the webhook signing secrets): AES-256-GCM with a key from the environment
 * (WEBHOOK_SECRETS_KEY), a random IV per value and the key's id in the value, so that a key
 * can be rotated: values sealed with an old key (WEBHOOK_SECRETS_OLD_KEYS) still open, and are
 * sealed again with the current one (needsResealing).
 */
export class SecretBox {
  private readonly current: { id: string; key: Buffer };
  private readonly byId: Map<string, Buffer>;

  constructor(current: Buffer, old: readonly Buffer[] = []) {
    this.current = { id: keyId(current), key: current };
    this.byId = new Map([current, ...old].map((k) => [keyId(k), k]));
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${SEALED}${this.current.id}:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
  }

  /** The plain value; throws when it was sealed with a key this box does not hold, or altered. */
  open(stored: string): string {
    if (!stored.startsWith(SEALED)) return stored;
    const [id, payload] = stored.slice(SEALED.length).split(':');
    const key = this.byId.get(id);
    if (!key)
      throw new Error(
        `a secret is sealed with key ${id}, which is neither WEBHOOK_SECRETS_KEY nor in WEBHOOK_SECRETS_OLD_KEYS`,
      );
    const raw = Buffer.from(payload, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }

  /** Stored in clear (from before sealing) or with an older key. */
  needsResealing(stored: string): boolean {
    return !stored.startsWith(`${SEALED}${this.current.id}:`);
  }
}

function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/** A key as configured: 32 bytes, base64 (or base64url) encoded. */
export function parseSecretsKey(value: string): Buffer {
  const key = Buffer.from(value.trim(), value.includes('-') || value.includes('_') ? 'base64url' : 'base64');
  if (key.length !== 32)
    throw new Error(
      `must be 32 random bytes in base64 (e.g. the output of: openssl rand -base64 32), not ${key.length} bytes`,
    );
  return key;
}

/**
 * The key of the embedded default, kept beside its database (DATA_DIR/secrets.key, readable by
 * the owner only) and made at the first start: a fresh install needs no configuration.
 */
export function embeddedSecretsKey(dataDir: string): Buffer {
  const dir = resolve(dataDir);
  const file = join(dir, 'secrets.key');
  if (existsSync(file)) return parseSecretsKey(readFileSync(file, 'utf8'));
  mkdirSync(dir, { recursive: true });
  const key = randomBytes(32);
  // The process holds the data directory's lock: no other one writes this file at the same time.
  writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return key;
}
