import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PROTOTYPE_KEYS } from '../../platform/lookup-table';
import { FIXTURES, fixture } from '../../../test/support/fake-register';
import { UpstreamError } from '../upstream-error';
import { PRAVNI_FORMA, STAV_ZDROJE } from './ares-code-lists';
import { aresDate, aresStatus, formatAdresa, parseAresError, parseSubjekt, parseSubjektSearch } from './ares-parsers';

const F = 'registers/cz';
const load = (file: string): any => JSON.parse(fixture(`${F}/${file}`));
const ASSECO = 'ares-ekonomicke-subjekty-ico-27074358-asseco.json';
const SAD = 'ares-ekonomicke-subjekty-ico-25063677-sad-sro.json';
const HELLA = 'ares-ekonomicke-subjekty-ico-25834151-hella.json';
const SOLE_TRADER = 'ares-ekonomicke-subjekty-ico-01603094-fyzicka-osoba.json';

/** Every address object of the recorded responses (seats, VR address histories, officers' and shareholders' addresses). */
function recordedAddresses(): any[] {
  const found: any[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      if ('textovaAdresa' in node) found.push(node);
      Object.values(node).forEach(walk);
    }
  };
  const recorded = (f: string) => f.endsWith('.json') && !/derived|openapi/.test(f);
  for (const file of readdirSync(join(FIXTURES, F)).filter(recorded)) walk(load(file));
  return found;
}

describe('parseSubjekt (GET /ekonomicke-subjekty/{ico})', () => {
  it('reads a joint-stock company in Prague', () => {
    expect(parseSubjekt(load(ASSECO))).toEqual({
      name: 'Asseco Central Europe, a.s.',
      registrationNumber: '27074358',
      country: 'CZ',
      status: 'Aktivní',
      statusCategory: 'active',
      legalForm: 'Akciová společnost',
      address: 'Budějovická 778/3a, Michle, 14000 Praha 4',
      city: 'Praha',
      incorporationDate: '2003-08-06',
      extra: { pravniForma: '121', primarniZdroj: 'vr', dic: 'CZ27074358', datumAktualizace: '2024-01-26' },
    });
  });

  it('reads a village seat without a street, and a street address outside Prague', () => {
    expect(parseSubjekt(load(SAD))).toMatchObject({
      name: 'SAD s.r.o.',
      legalForm: 'Společnost s ručením omezeným',
      address: 'Daminěves 35, 27704 Cítov',
      city: 'Cítov',
      incorporationDate: '1996-07-08',
    });
    expect(parseSubjekt(load(HELLA))).toMatchObject({
      name: 'HELLA AUTOTECHNIK NOVA, s.r.o.',
      address: 'Družstevní 338/16, 78985 Mohelnice',
      city: 'Mohelnice',
    });
  });

  it('reads a sole trader (fyzická osoba) from the trade register, without a VAT number', () => {
    expect(parseSubjekt(load(SOLE_TRADER))).toEqual({
      name: 'Bc. Kristýna Vokálová',
      registrationNumber: '01603094',
      country: 'CZ',
      status: 'Aktivní',
      statusCategory: 'active',
      legalForm: 'Fyzická osoba podnikající dle živnostenského zákona',
      address: 'Zábědov 89, 50401 Nový Bydžov',
      city: 'Nový Bydžov',
      incorporationDate: '2013-04-15',
      extra: { pravniForma: '101', primarniZdroj: 'rzp', datumAktualizace: '2023-08-09' },
    });
  });

  it('reads a ceased company (derived: datumZaniku added) as dissolved', () => {
    expect(parseSubjekt(load('ares-ekonomicke-subjekty-ico-25063677-derived-zanikly.json'))).toMatchObject({
      status: 'Zaniklý',
      statusCategory: 'dissolved',
      incorporationDate: '1996-07-08',
      extra: { datumZaniku: '2024-03-31' },
    });
  });

  it('does not throw on missing optional fields, nor on optional fields of another type', () => {
    const bare = { ico: '27074358', obchodniJmeno: 'Asseco Central Europe, a.s.' };
    expect(parseSubjekt(bare)).toEqual({
      name: 'Asseco Central Europe, a.s.',
      registrationNumber: '27074358',
      country: 'CZ',
      status: null,
      statusCategory: 'unknown',
      legalForm: null,
      address: null,
      city: null,
      incorporationDate: null,
      extra: {},
    });
    const odd = { ...load(ASSECO), sidlo: 'Praha', datumVzniku: 20030806, pravniForma: 121, seznamRegistraci: [] };
    expect(parseSubjekt(odd)).toMatchObject({ address: null, city: null, incorporationDate: null, legalForm: null });
    const oddSeat = { ...load(SAD), sidlo: { ...load(SAD).sidlo, psc: '277 04', cisloDomovni: null } };
    expect(parseSubjekt(oddSeat).address).toBe('Daminěves 35, 27704 Cítov'); // the register's own line
  });

  it('trims strings and checks dates', () => {
    const body = {
      ...load(ASSECO),
      obchodniJmeno: '  Asseco Central Europe,\n a.s. ',
      datumVzniku: '2003-02-30',
      datumAktualizace: '0001-01-01',
    };
    const record = parseSubjekt(body);
    expect(record.name).toBe('Asseco Central Europe, a.s.');
    expect(record.incorporationDate).toBeNull();
    expect(record.extra).not.toHaveProperty('datumAktualizace');
  });

  it('shows no legal form for a code outside the code list, and keeps the code', () => {
    const record = parseSubjekt({ ...load(ASSECO), pravniForma: '999' });
    expect(record.legalForm).toBeNull();
    expect(record.extra).toMatchObject({ pravniForma: '999' });
  });

  it.each([
    [null],
    [[]],
    ['Asseco'],
    [{ obchodniJmeno: 'Asseco Central Europe, a.s.' }],
    [{ ico: '2707435', obchodniJmeno: 'Asseco Central Europe, a.s.' }],
    [{ ico: '27074358', obchodniJmeno: '  ' }],
    [{ ico: '27074358' }],
  ])('throws invalid_response on a body of the wrong shape: %p', (body) => {
    expect(() => parseSubjekt(body)).toThrow(UpstreamError);
    expect(() => parseSubjekt(body)).toThrow(expect.objectContaining({ errorClass: 'invalid_response' }));
  });
});

describe('formatAdresa', () => {
  const addresses = recordedAddresses();

  it('builds every standardised Czech address of the recorded responses exactly as ARES writes it', () => {
    const standardised = addresses.filter((a) => a.standardizaceAdresy === true);
    expect(standardised.length).toBeGreaterThanOrEqual(25);
    for (const a of standardised) {
      // The line is built from the parts: without textovaAdresa it comes out the same.
      expect(formatAdresa({ ...a, textovaAdresa: null })).toBe(a.textovaAdresa);
    }
  });

  it('writes "č.p." when the part of the municipality is the municipality (VR: Dublovice 174)', () => {
    expect(addresses.map((a) => formatAdresa(a))).toContain('č.p. 174, 26251 Dublovice');
  });

  it("gives ARES's own line for addresses it did not standardise (abroad, old free text)", () => {
    const loose = addresses.filter((a) => a.standardizaceAdresy === false);
    expect(loose.length).toBeGreaterThanOrEqual(5);
    for (const a of loose) expect(formatAdresa(a)).toBe(a.textovaAdresa.trim());
    expect(loose.map((a) => formatAdresa(a))).toContain('Bruchbäumer Weg 18a, 19555 Lippstadt, Německo');
  });

  it('gives the line ARES wrote for a record number (č.ev.), whose spelling was not recorded', () => {
    const seat = { ...load(SAD).sidlo, typCisloDomovni: '2', textovaAdresa: 'Daminěves č.ev. 35, 27704 Cítov' };
    expect(formatAdresa(seat)).toBe('Daminěves č.ev. 35, 27704 Cítov');
  });

  it('is null when there is nothing to build from', () => {
    expect(formatAdresa({} as never)).toBeNull();
  });
});

describe('aresStatus', () => {
  const sources = (extra: Record<string, string>) => ({ stavZdrojeVr: 'AKTIVNI', stavZdrojeRes: 'AKTIVNI', ...extra });

  it('reads the state in the primary source', () => {
    expect(aresStatus({ primarniZdroj: 'vr', seznamRegistraci: sources({}) })).toEqual({
      status: 'Aktivní',
      statusCategory: 'active',
    });
    expect(aresStatus({ primarniZdroj: 'vr', seznamRegistraci: sources({ stavZdrojeVr: 'ZANIKLY' }) })).toEqual({
      status: 'Zaniklý',
      statusCategory: 'dissolved',
    });
  });

  it('says nothing for a state it does not know in the primary source', () => {
    expect(aresStatus({ primarniZdroj: 'vr', seznamRegistraci: sources({ stavZdrojeVr: 'HISTORICKY' }) })).toEqual({
      status: null,
      statusCategory: 'unknown',
    });
  });

  it('falls back on any active source when no primary source is named', () => {
    expect(aresStatus({ seznamRegistraci: { stavZdrojeVr: 'NEEXISTUJICI', stavZdrojeRes: 'AKTIVNI' } })).toEqual({
      status: 'Aktivní',
      statusCategory: 'active',
    });
    expect(aresStatus({ seznamRegistraci: { stavZdrojeVr: 'NEEXISTUJICI' } }).statusCategory).toBe('unknown');
  });

  it('puts a date of dissolution above every source', () => {
    expect(aresStatus({ datumZaniku: '2020-01-01', primarniZdroj: 'vr', seznamRegistraci: sources({}) })).toEqual({
      status: 'Zaniklý',
      statusCategory: 'dissolved',
    });
  });

  it('reads an active subject held in the insolvency register or among bankrupts as in insolvency', () => {
    expect(aresStatus({ primarniZdroj: 'vr', seznamRegistraci: sources({ stavZdrojeIr: 'AKTIVNI' }) })).toEqual({
      status: 'Aktivní, v insolvenčním rejstříku',
      statusCategory: 'insolvency',
    });
    expect(aresStatus({ primarniZdroj: 'vr', seznamRegistraci: sources({ stavZdrojeCeu: 'AKTIVNI' }) })).toEqual({
      status: 'Aktivní, v centrální evidenci úpadců',
      statusCategory: 'insolvency',
    });
  });
});

describe('parseSubjektSearch (POST /ekonomicke-subjekty/vyhledat)', () => {
  it('reads every hit (derived page of the recorded subjects)', () => {
    const { total, records } = parseSubjektSearch(load('ares-ekonomicke-subjekty-vyhledat-derived-3-hits.json'));
    expect(total).toBe(3);
    expect(records.map((r) => [r.registrationNumber, r.name, r.legalForm])).toEqual([
      ['27074358', 'Asseco Central Europe, a.s.', 'Akciová společnost'],
      ['25063677', 'SAD s.r.o.', 'Společnost s ručením omezeným'],
      ['25834151', 'HELLA AUTOTECHNIK NOVA, s.r.o.', 'Společnost s ručením omezeným'],
    ]);
  });

  it('leaves out subjects without an IČO (icoId "ARES_…")', () => {
    const page = load('ares-ekonomicke-subjekty-vyhledat-derived-3-hits.json');
    const { ico: _ico, ...withoutIco } = page.ekonomickeSubjekty[1];
    page.ekonomickeSubjekty[1] = { ...withoutIco, icoId: 'ARES_00369838' };
    expect(parseSubjektSearch(page).records.map((r) => r.registrationNumber)).toEqual(['27074358', '25834151']);
  });

  it('reads an empty page', () => {
    expect(parseSubjektSearch({ pocetCelkem: 0 })).toEqual({ total: 0, records: [] });
    expect(parseSubjektSearch({ pocetCelkem: 0, ekonomickeSubjekty: [] })).toEqual({ total: 0, records: [] });
  });

  it('throws invalid_response on a page or a hit of the wrong shape', () => {
    expect(() => parseSubjektSearch({ ekonomickeSubjekty: [] })).toThrow(UpstreamError);
    expect(() => parseSubjektSearch(load(ASSECO))).toThrow(UpstreamError);
    expect(() => parseSubjektSearch({ pocetCelkem: 1, ekonomickeSubjekty: [{ obchodniJmeno: 'X' }] })).toThrow(
      expect.objectContaining({ errorClass: 'invalid_response' }),
    );
  });
});

describe('parseAresError', () => {
  it('400 CHYBA_VSTUPU: quotes the sentence meant for people', () => {
    expect(parseAresError(load('ares-error-400-chyba-vstupu-ico-7-digits.json'))).toEqual({
      kod: 'CHYBA_VSTUPU',
      subKod: 'VSTUP_NEVALIDNI_FORMAT_ICO',
      message:
        'ARES answered CHYBA_VSTUPU (VSTUP_NEVALIDNI_FORMAT_ICO), an input error: "Není vyplněn správný formát IČO. Upravte parametry vyhledávání."',
    });
  });

  it('404 NENALEZENO', () => {
    expect(parseAresError(load('ares-error-404-nenalezeno.json'))).toEqual({
      kod: 'NENALEZENO',
      subKod: 'VYSTUP_SUBJEKT_NENALEZEN',
      message:
        'ARES answered NENALEZENO (VYSTUP_SUBJEKT_NENALEZEN), not found: "Nebyl nalezen žádný subjekt, který by odpovídal zadaným hodnotám. Upravte parametry vyhledávání."',
    });
  });

  it('500 OBECNA_CHYBA: never passes on the leaked Java exception', () => {
    const error = parseAresError(load('ares-error-500-obecna-chyba-bad-vyhledat-body.json'));
    expect(error).toEqual({
      kod: 'OBECNA_CHYBA',
      subKod: null,
      message: 'ARES answered OBECNA_CHYBA, a general server error.',
    });
  });

  it('is null for a body that is not an ARES error', () => {
    for (const body of [null, 'Service Unavailable', {}, { status: 404, error: 'Not Found' }, load(ASSECO)])
      expect(parseAresError(body)).toBeNull();
  });

  it('names an unknown code plainly', () => {
    expect(parseAresError({ kod: 'NOVY_KOD', popis: 'x' })!.message).toBe('ARES answered NOVY_KOD, an error.');
  });
});

describe('code lists and values', () => {
  it('words every legal form of the recorded responses and registers-next.md (101, 112, 121, 601)', () => {
    expect(PRAVNI_FORMA['101']).toBe('Fyzická osoba podnikající dle živnostenského zákona');
    expect(PRAVNI_FORMA['112']).toBe('Společnost s ručením omezeným');
    expect(PRAVNI_FORMA['121']).toBe('Akciová společnost');
    expect(PRAVNI_FORMA['601']).toBe('Vysoká škola (veřejná, státní)');
    for (const code of Object.keys(PRAVNI_FORMA)) expect(code).toMatch(/^\d{3}$/);
  });

  it.each(PROTOTYPE_KEYS)('answers nothing for %p', (key) => {
    expect(PRAVNI_FORMA[key]).toBeUndefined();
    expect(STAV_ZDROJE[key]).toBeUndefined();
    expect(parseSubjekt({ ...load(ASSECO), pravniForma: key }).legalForm).toBeNull();
  });

  it.each([
    ['2003-08-06', '2003-08-06'],
    [' 2003-08-06 ', '2003-08-06'],
    ['2024-02-29', '2024-02-29'],
    ['2023-02-29', null],
    ['2003-13-01', null],
    ['0001-01-01', null],
    ['9999-12-31', null],
    ['2003-8-6', null],
    ['06.08.2003', null],
    ['2003-08-06T00:00:00', null],
    [20030806, null],
    [null, null],
  ])('aresDate(%p) = %p', (value, expected) => {
    expect(aresDate(value)).toBe(expected);
  });
});
