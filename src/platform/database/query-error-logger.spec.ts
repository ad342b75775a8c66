import { Logger } from '@nestjs/common';
import { QueryErrorLogger } from './query-error-logger';

describe('QueryErrorLogger', () => {
  it('logs a failed query without its parameters (secrets travel as parameters)', () => {
    const lines: string[] = [];
    const spy = jest.spyOn(Logger.prototype, 'error').mockImplementation((m: unknown) => void lines.push(String(m)));
    const secret = 'whsec_TOPSECRETtopsecretTOPSECRET0123456789abcd=';
    // What TypeORM passes on failure: the error, the statement, its parameters.
    (new QueryErrorLogger().logQueryError as (e: Error, q: string, p: unknown[]) => void)(
      new Error('connection terminated'),
      'UPDATE webhook_endpoint SET previous_secret = secret, secret = $4 WHERE id = $1',
      ['we_1', 'acct_1', new Date(), secret],
    );
    spy.mockRestore();
    expect(lines).toEqual([expect.stringMatching(/^query failed: connection terminated \(UPDATE webhook_endpoint/)]);
    expect(lines.join('\n')).not.toContain('TOPSECRET');
  });
});
