import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, sign, signatureHeader } from './standard-webhooks';

describe('Standard Webhooks signing', () => {
  it('signs the test vector of the specification to the expected value', () => {
    expect(
      sign(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('makes secrets of 32 random bytes that the standardwebhooks package accepts and verifies with', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
    const body = JSON.stringify({ event: 'company.name_changed', data: { company_name: 'Ærø Ølfabrik ApS' } });
    const ts = Math.floor(Date.now() / 1000);
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(ts),
      'webhook-signature': signatureHeader([secret], 'msg_1', ts, body),
    };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    // One changed byte of the body, or another secret: refused.
    expect(() => new Webhook(secret).verify(body.replace('Ø', 'O'), headers)).toThrow(/signature/i);
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow(/signature/i);
  });

  it('signs with both secrets during a rotation: a receiver holding either verifies', () => {
    const [oldSecret, newSecret] = [newWebhookSecret(), newWebhookSecret()];
    const body = '{"a":1}';
    const ts = Math.floor(Date.now() / 1000);
    const header = signatureHeader([newSecret, oldSecret], 'msg_2', ts, body);
    expect(header.split(' ')).toHaveLength(2);
    expect(header.split(' ').every((e) => e.startsWith('v1,'))).toBe(true);
    for (const secret of [oldSecret, newSecret]) {
      expect(
        new Webhook(secret).verify(body, {
          'webhook-id': 'msg_2',
          'webhook-timestamp': String(ts),
          'webhook-signature': header,
        }),
      ).toEqual({ a: 1 });
    }
  });
});
