import { parseSecretsKey, SecretBox } from '../../src/platform/crypto/secret-box';

/** The key of the secrets at rest in every test process on Postgres (the embedded default keeps its own). */
export const TEST_SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');

export const testSecretBox = (): SecretBox => new SecretBox(parseSecretsKey(TEST_SECRETS_KEY));
