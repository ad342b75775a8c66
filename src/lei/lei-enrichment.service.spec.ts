import { ManualClock } from '../platform/clock';
import { AppConfig } from '../platform/config/app-config';
import type { CompanyRecord } from '../registers/connector';
import type { GleifClient, LeiNumbersLookup } from '../registers/lei/gleif.client';
import { LeiCache } from './lei-cache';
import { LEI_CACHE_TTL_MS, LeiEnrichment } from './lei-enrichment.service';

const SHELL_LEI = '21380068P1DRHMJ8KU70';

function record(registrationNumber: string, extra?: Record<string, unknown>): CompanyRecord {
  return {
    name: `COMPANY ${registrationNumber}`,
    registrationNumber,
    country: 'GB',
    status: 'Active',
    statusCategory: 'active',
    legalForm: null,
    address: null,
    city: null,
    incorporationDate: null,
    source: { register: 'R', url: 'https://r.example', official: true, kind: 'native_official', retrievedAt: 'x' },
    ...(extra ? { extra } : {}),
  };
}

describe('LeiEnrichment', () => {
  let clock: ManualClock;
  let calls: Array<{ country: string; numbers: readonly string[]; timeoutMs: number }>;
  let answer: (numbers: readonly string[]) => LeiNumbersLookup;
  let enrichment: LeiEnrichment;

  beforeEach(() => {
    clock = new ManualClock(new Date('2026-11-22T12:00:00.000Z'));
    calls = [];
    answer = () => ({ leis: new Map([['04366849', SHELL_LEI]]), known: true });
    const gleif = {
      lookupNumbers: async (country: string, numbers: readonly string[], timeoutMs: number) => {
        calls.push({ country, numbers, timeoutMs });
        return answer(numbers);
      },
    } as unknown as GleifClient;
    enrichment = new LeiEnrichment(gleif, AppConfig.fromEnv({ LEI_LOOKUP_TIMEOUT_MS: '300' }), clock);
  });

  it('asks GLEIF once for every number of a response, with the configured wait, and attaches what it maps', async () => {
    const out = await enrichment.enrich('GB', [record('04366849'), record('04475590')]);
    expect(out).toEqual([{ ...record('04366849'), lei: SHELL_LEI }, record('04475590')]);
    expect(out[1]).not.toHaveProperty('lei');
    expect(calls).toEqual([{ country: 'GB', numbers: ['04366849', '04475590'], timeoutMs: 300 }]);
  });

  it('remembers LEIs and known-none for a day, then asks again', async () => {
    await enrichment.enrich('GB', [record('04366849'), record('04475590')]);
    const again = await enrichment.enrich('GB', [record('04475590'), record('04366849')]);
    expect(again[1].lei).toBe(SHELL_LEI);
    expect(calls).toHaveLength(1);
    clock.advance(LEI_CACHE_TTL_MS);
    await enrichment.enrich('GB', [record('04366849')]);
    expect(calls).toHaveLength(2);
  });

  it('remembers nothing of a lookup that failed or was cut: the next response asks again', async () => {
    answer = () => ({ leis: new Map(), known: false });
    expect(await enrichment.enrich('GB', [record('04366849')])).toEqual([record('04366849')]);
    answer = () => ({ leis: new Map([['04366849', SHELL_LEI]]), known: true });
    expect((await enrichment.enrich('GB', [record('04366849')]))[0].lei).toBe(SHELL_LEI);
    expect(calls).toHaveLength(2);
  });

  it('asks only for the numbers it does not know, and not at all when it knows them all', async () => {
    await enrichment.enrich('GB', [record('04366849')]);
    await enrichment.enrich('GB', [record('04366849'), record('00445790')]);
    expect(calls.map((c) => c.numbers)).toEqual([['04366849'], ['00445790']]);
    await enrichment.enrich('GB', [record('00445790'), record('04366849')]);
    expect(calls).toHaveLength(2);
    expect(await enrichment.enrich('GB', [])).toEqual([]);
    expect(calls).toHaveLength(2);
  });

  it('asks for an AU record’s ACN beside its ABN, registration numbers first, at most 100 numbers', async () => {
    answer = () => ({ leis: new Map([['154482283', SHELL_LEI]]), known: true });
    const au = { ...record('26154482283', { acn: '154482283' }), country: 'AU' as const };
    const [out] = await enrichment.enrich('AU', [au]);
    expect(out.lei).toBe(SHELL_LEI);
    expect(calls[0].numbers).toEqual(['26154482283', '154482283']);

    const many = Array.from({ length: 60 }, (_, i) => ({
      ...record(String(10_000_000_000 + i), { acn: String(100_000_000 + i) }),
      country: 'AU' as const,
    }));
    await enrichment.enrich('AU', many);
    expect(calls[1].numbers).toHaveLength(100);
    expect(calls[1].numbers.slice(0, 60)).toEqual(many.map((r) => r.registrationNumber));
  });

  it('keys what it remembers by country', async () => {
    await enrichment.enrich('GB', [record('04366849')]);
    await enrichment.leisOf('NO', ['04366849']);
    expect(calls).toHaveLength(2);
  });
});

describe('LeiCache', () => {
  it('forgets the oldest answers past its size, and answers past their time', () => {
    const cache = new LeiCache(2, 1_000);
    cache.set('a', 'A', 0);
    cache.set('b', null, 0);
    expect(cache.get('b', 500)).toBeNull();
    cache.set('c', 'C', 0);
    expect(cache.size).toBe(2);
    expect(cache.get('a', 0)).toBeUndefined();
    expect(cache.get('c', 999)).toBe('C');
    expect(cache.get('c', 1_000)).toBeUndefined();
  });
});
