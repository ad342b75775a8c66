import { fixture } from '../../../test/support/fake-register';
import { UpstreamError } from '../upstream-error';
import {
  CA_STATUS_WORDING,
  corpCanStatusCategory,
  parseCorpCanCorporation,
  parseCorpCanDirectors,
} from './corpcan-parser';

const json = (file: string) => JSON.parse(fixture(`registers/ca/${file}`)) as unknown;

describe('parseCorpCanCorporation', () => {
  it('reads the English record of corporation 1007 (built from the documented shape and its real open data)', () => {
    expect(parseCorpCanCorporation(json('corpcan-api-corporation-1007-constructed-from-docs.json'))).toEqual({
      name: 'Abbotsford Chamber of Commerce',
      registrationNumber: '1007',
      country: 'CA',
      status: 'Active',
      statusCategory: 'active',
      legalForm: 'Boards of Trade Act — Part II',
      address: '207 - 32900 SOUTH FRASER WAY, ABBOTSFORD BC V2S 5A1',
      city: 'ABBOTSFORD',
      incorporationDate: '1947-01-10',
      extra: { businessNumber: '106679285', otherNumbers: ['106679285'] },
    });
  });

  it('reads a CBCA corporation (16292721 CANADA INC.)', () => {
    expect(parseCorpCanCorporation(json('corpcan-api-corporation-16292721-constructed-from-docs.json'))).toMatchObject({
      name: '16292721 CANADA INC.',
      registrationNumber: '16292721',
      legalForm: 'Canada Business Corporations Act',
      address: '751 Rue du Square-Victoria, Montréal QC H2Y 2J3',
      city: 'Montréal',
      incorporationDate: '2024-08-15',
      extra: { businessNumber: '754441624' },
    });
  });

  it('answers null for the "could not find corporation" answer', () => {
    expect(
      parseCorpCanCorporation(json('corpcan-api-corporation-unknown-99999999-constructed-from-docs.json')),
    ).toBeNull();
  });

  it('refuses answers it cannot read', () => {
    const [english] = json('corpcan-api-corporation-1007-constructed-from-docs.json') as [Record<string, unknown>];
    expect(() => parseCorpCanCorporation({ corporationId: '1007' })).toThrow(UpstreamError);
    expect(() => parseCorpCanCorporation([])).toThrow(UpstreamError);
    expect(() => parseCorpCanCorporation([null, english])).toThrow(/English record/);
    expect(() => parseCorpCanCorporation([{ ...english, corporationNames: [] }, null])).toThrow(/current name/);
    expect(() => parseCorpCanCorporation([{ ...english, corporationId: null }, null])).toThrow(UpstreamError);
  });
});

describe('parseCorpCanDirectors', () => {
  it('reads the recorded directors of corporation 9657690 as persons with role "Director" and no dates', () => {
    expect(parseCorpCanDirectors(json('corpcan-api-v2-directors-9657690.json'))).toEqual([
      { name: 'Michael Kravshik', role: 'Director', kind: 'person', appointedOn: null, resignedOn: null },
      { name: 'Jean Desgagne', role: 'Director', kind: 'person', appointedOn: null, resignedOn: null },
      { name: 'Adam Bercovici', role: 'Director', kind: 'person', appointedOn: null, resignedOn: null },
    ]);
  });

  it('reads a HAL document without embedded directors as none, and refuses other bodies', () => {
    const recorded = json('corpcan-api-v2-directors-9657690.json') as { _links: unknown };
    expect(parseCorpCanDirectors({ _links: recorded._links })).toEqual([]);
    expect(() => parseCorpCanDirectors(['could not find corporation 1'])).toThrow(UpstreamError);
    expect(() => parseCorpCanDirectors({ _embedded: { directors: [{ uuid: 'x' }] } })).toThrow(/without a name/);
  });
});

describe('corpCanStatusCategory', () => {
  it.each([
    ['1', 'active'],
    ['2', 'in_liquidation'],
    ['3', 'struck_off'],
    ['4', 'active'],
    ['9', 'dissolved'],
    ['10', 'dissolved'],
    ['11', 'dissolved'],
    ['19', 'unknown'],
  ])('maps the wording of open-data status code %s to %s', (code, category) => {
    expect(corpCanStatusCategory(CA_STATUS_WORDING[code])).toBe(category);
  });

  it('tolerates dash and case variants of the wording', () => {
    expect(corpCanStatusCategory('Inactive – Amalgamated')).toBe('dissolved');
    expect(corpCanStatusCategory('ACTIVE - DISSOLUTION PENDING (NON-COMPLIANCE)')).toBe('struck_off');
    expect(corpCanStatusCategory('Something new')).toBe('unknown');
    expect(corpCanStatusCategory(null)).toBe('unknown');
  });
});
