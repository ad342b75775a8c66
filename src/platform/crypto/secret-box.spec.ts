import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedSecretsKey, parseSecretsKey, SecretBox } from './secret-box';

describe('SecretBox (secrets at rest)', () => {
  const a = randomBytes(32);
  const b = randomBytes(32);

  it('seals each value apart and opens it again', () => {
    const box = new SecretBox(a);
    const one = box.seal('whsec_abc');
    expect(one).toMatch(/^enc:v1:[0-9a-f]{8}:/);
    expect(one).not.toContain('abc');
    expect(box.seal('whsec_abc')).not.toBe(one); // a fresh IV each time
    expect(box.open(one)).toBe('whsec_abc');
  });

  it('opens a value altered in the database as an error, not as another secret', () => {
    const box = new SecretBox(a);
    const sealed = box.seal('whsec_abc');
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => box.open(tampered)).toThrow();
  });

  it('rotates: an old key still opens, and what it sealed needs resealing', () => {
    const before = new SecretBox(a).seal('whsec_old');
    const rotated = new SecretBox(b, [a]);
    expect(rotated.open(before)).toBe('whsec_old');
    expect(rotated.needsResealing(before)).toBe(true);
    expect(rotated.needsResealing(rotated.seal('x'))).toBe(false);
    expect(() => new SecretBox(b).open(before)).toThrow(/neither WEBHOOK_SECRETS_KEY nor in WEBHOOK_SECRETS_OLD_KEYS/);
  });

  it('opens a value stored before sealing as it is, and says it needs sealing', () => {
    const box = new SecretBox(a);
    expect(box.open('whsec_plain')).toBe('whsec_plain');
    expect(box.needsResealing('whsec_plain')).toBe(true);
  });

  it('takes a key of 32 bytes in base64 only, saying what is wrong', () => {
    expect(parseSecretsKey(a.toString('base64'))).toEqual(a);
    expect(parseSecretsKey(a.toString('base64url'))).toEqual(a);
    expect(() => parseSecretsKey('c2hvcnQ=')).toThrow(/32 random bytes .* not 5 bytes/);
  });

  it('makes the embedded default its key once, readable by its owner only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rl-key-'));
    try {
      const key = embeddedSecretsKey(dir);
      expect(key).toHaveLength(32);
      expect(statSync(join(dir, 'secrets.key')).mode & 0o777).toBe(0o600);
      expect(embeddedSecretsKey(dir)).toEqual(key);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
