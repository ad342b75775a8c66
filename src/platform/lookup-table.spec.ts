import { parseMessage } from '../mcp/json-rpc-http';
import { abnStatusCategory, matchingNamesStatus } from '../registers/au/abr-parser';
import { corpCanStatusCategory } from '../registers/ca/corpcan-parser';
import { categorieJuridiqueLabel } from '../registers/fr/categories-juridiques';
import { chLegalForm, chStatus } from '../registers/gb/ch-api-parsers';
import { lookupTable, PROTOTYPE_KEYS } from './lookup-table';

describe('lookupTable: tables keyed by outside strings answer nothing for Object.prototype names', () => {
  it('has no inherited keys', () => {
    const table = lookupTable({ a: 1 });
    expect(table.a).toBe(1);
    for (const key of PROTOTYPE_KEYS) expect(table[key]).toBeUndefined();
    expect(Object.isFrozen(table)).toBe(true);
  });

  it.each(PROTOTYPE_KEYS)(
    'a JSON-RPC request with method %s passes the envelope check (the SDK then answers -32601)',
    (method) => {
      const checked = parseMessage(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method })));
      expect(checked.ok).toBe(true);
    },
  );

  it.each(PROTOTYPE_KEYS)('register codes named %s map to the register’s own wording, not to a function', (key) => {
    expect(chStatus(key)).toEqual({ status: key, statusCategory: 'unknown' });
    expect(chLegalForm(key)).toBe(key);
    expect(categorieJuridiqueLabel(key)).toBe(key);
    expect(corpCanStatusCategory(key)).toBe('unknown');
    expect(matchingNamesStatus(key)).toBeNull();
    expect(abnStatusCategory(key)).toBe('unknown');
  });
});
