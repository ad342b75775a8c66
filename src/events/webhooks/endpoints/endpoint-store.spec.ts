import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createTestDataSource, TestBackend } from '../../../../test/support/database';
import { SecretBox } from '../../../platform/crypto/secret-box';
import { randomId } from '../../../platform/ids';
import { EndpointStore } from './endpoint-store';

jest.setTimeout(60_000);

describe.each<TestBackend>(['pglite', ...(process.env.DATABASE_URL ? (['postgres'] as const) : [])])(
  'EndpointStore secrets on %s',
  (backend) => {
    let dataSource: DataSource;
    let close: () => Promise<void>;
    const a = randomBytes(32);
    const b = randomBytes(32);
    beforeAll(async () => {
      ({ dataSource, close } = await createTestDataSource(backend));
    });
    afterAll(() => close());

    async function endpointWith(store: EndpointStore, secret: string): Promise<string> {
      const accountId = randomId('acct');
      await dataSource.query(`INSERT INTO account (id, email, created_at) VALUES ($1, $2, now())`, [
        accountId,
        `${accountId}@example.com`,
      ]);
      const id = randomId('we');
      await store.insert(dataSource.manager, {
        id,
        accountId,
        url: 'https://example.com/hook',
        description: null,
        events: ['company.name_changed'],
        secret,
        createdAt: new Date(),
      });
      return id;
    }

    const stored = async (id: string) =>
      (
        (await dataSource.query(`SELECT secret FROM webhook_endpoint WHERE id = $1`, [id])) as Array<{ secret: string }>
      )[0].secret;

    it('stores a secret sealed; after a key rotation, reseals it with the new key at the next boot', async () => {
      const id = await endpointWith(new EndpointStore(dataSource, new SecretBox(a)), 'whsec_rotating');
      const before = await stored(id);
      expect(before).not.toContain('whsec_rotating');

      const rotated = new SecretBox(b, [a]);
      expect((await new EndpointStore(dataSource, rotated).resealSecrets()).sealed).toBeGreaterThanOrEqual(1);
      const after = await stored(id);
      expect(after).not.toBe(before);
      expect(new SecretBox(b).open(after)).toBe('whsec_rotating'); // the old key is no longer needed
      expect(await new EndpointStore(dataSource, rotated).resealSecrets()).toEqual({ sealed: 0, unreadable: 0 });
    });

    it('seals a secret stored in clear before sealing existed', async () => {
      const id = await endpointWith(new EndpointStore(dataSource, new SecretBox(a)), 'whsec_x');
      await dataSource.query(`UPDATE webhook_endpoint SET secret = 'whsec_legacy' WHERE id = $1`, [id]);
      // Key b sealed the first test's secret: unreadable with a alone, and left as it is.
      expect(await new EndpointStore(dataSource, new SecretBox(a)).resealSecrets()).toEqual({
        sealed: 1,
        unreadable: 1,
      });
      const after = await stored(id);
      expect(after).toMatch(/^enc:v1:/);
      expect(new SecretBox(a).open(after)).toBe('whsec_legacy');
    });
  },
);
