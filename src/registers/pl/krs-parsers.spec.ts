import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UpstreamError } from '../upstream-error';
import {
  KRS_REGISTERED,
  KRS_REMOVED,
  nameStatus,
  parseKrsProblem,
  parseOdpisAktualny,
  parseOdpisPelny,
} from './krs-parsers';
import { formatKrsAddress, krsDate } from './krs-values';

const DIR = join(__dirname, '../../../test/fixtures/registers/pl');
const load = (file: string): any => JSON.parse(readFileSync(join(DIR, file), 'utf8'));

const GYM = 'krs-odpisaktualny-P-0001268296-gym-center-sp-zoo.json';
const GYM_FULL = 'krs-odpispelny-P-0001268296-gym-center-sp-zoo.json';
const WOSP = 'krs-odpisaktualny-S-0000030897-wosp-fundacja.json';
const ORLEN = 'krs-odpisaktualny-P-0000028860-orlen-trimmed.json';
const LOTOS_REMOVED = 'krs-odpispelny-P-0000106150-wykreslony-removed-trimmed.json';
const REGISTER_P = 'REJESTR PRZEDSIĘBIORCÓW';

/** A masked part as the ministry writes it: one capital letter, then asterisks. */
const MASKED_NAME = /^[A-ZĄĆĘŁŃÓŚŹŻ]\*+(?:[ -][A-ZĄĆĘŁŃÓŚŹŻ]\*+)*$/u;

function expectInvalidResponse(fn: () => unknown): void {
  let thrown: unknown;
  try {
    fn();
  } catch (err) {
    thrown = err;
  }
  expect(thrown).toBeInstanceOf(UpstreamError);
  expect((thrown as UpstreamError).errorClass).toBe('invalid_response');
}

describe('parseOdpisAktualny (current extract)', () => {
  it('reads a company of register P: name, form, address, dates, NIP and REGON, board', () => {
    expect(parseOdpisAktualny(load(GYM))).toEqual({
      register: 'P',
      record: {
        name: 'GYM CENTER 8.0 SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ',
        registrationNumber: '0001268296',
        country: 'PL',
        status: KRS_REGISTERED,
        statusCategory: 'active',
        legalForm: 'SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ',
        address: 'UL. OSTATNIA 1D, 31-444 KRAKÓW',
        city: 'KRAKÓW',
        incorporationDate: '2026-09-22',
        extra: {
          krsRegister: 'P',
          krsRegisterName: REGISTER_P,
          registeredInKrsOn: '2026-09-22',
          nip: '9452336418',
          // KRS writes "54577292400000": the padding is removed.
          regon: '545772924',
          // The valid NIP and REGON: what a NIP or REGON query finds the record by in the dataset.
          otherNumbers: ['9452336418', '545772924'],
        },
      },
      officers: [
        { name: 'D***** K******** M****', role: 'PREZES ZARZĄDU', kind: 'person', appointedOn: null, resignedOn: null },
      ],
    });
  });

  it('reads a foundation of register S, registered before KRS: no incorporation date, the earlier register named', () => {
    const { register, record, officers } = parseOdpisAktualny(load(WOSP));
    expect(register).toBe('S');
    expect(record).toEqual({
      name: 'FUNDACJA WIELKA ORKIESTRA ŚWIĄTECZNEJ POMOCY',
      registrationNumber: '0000030897',
      country: 'PL',
      status: KRS_REGISTERED,
      statusCategory: 'active',
      legalForm: 'FUNDACJA',
      address: 'DOMINIKAŃSKA 19 C, 02-738 WARSZAWA',
      city: 'WARSZAWA',
      incorporationDate: null,
      extra: {
        krsRegister: 'S',
        krsRegisterName:
          'REJESTR STOWARZYSZEŃ, INNYCH ORGANIZACJI SPOŁECZNYCH I ZAWODOWYCH, FUNDACJI ORAZ SAMODZIELNYCH PUBLICZNYCH ZAKŁADÓW OPIEKI ZDROWOTNEJ',
        registeredInKrsOn: '2001-07-25',
        previousRegistration: {
          register: 'REJESTR FUNDACJI',
          number: 'NR 3457',
          court: 'SĄD REJONOWY DLA M. ST. WARSZAWY XVI WYDZIAŁ GOSPODARCZY-REJESTROWY',
        },
        nip: '5213003700',
        otherNumbers: ['5213003700'],
      },
    });
    // The supervisory council (organNadzoru) is not the representing organ: not among the officers.
    expect(officers).toEqual([
      { name: 'J**** Z******* O*****', role: 'PREZES ZARZĄDU', kind: 'person', appointedOn: null, resignedOn: null },
      {
        name: 'L**** N***********-O*****',
        role: 'CZŁONEK ZARZĄDU',
        kind: 'person',
        appointedOn: null,
        resignedOn: null,
      },
      { name: 'P**** L***** B*********', role: 'CZŁONEK ZARZĄDU', kind: 'person', appointedOn: null, resignedOn: null },
      {
        name: 'B***** J******* M**********',
        role: 'WICEPREZES ZARZĄDU',
        kind: 'person',
        appointedOn: null,
        resignedOn: null,
      },
    ]);
  });

  it('reads a large company: locality before the street when the post office is another town; a merger in dzial6 is no status', () => {
    const { record, officers } = parseOdpisAktualny(load(ORLEN));
    expect(record).toMatchObject({
      name: 'ORLEN SPÓŁKA AKCYJNA',
      status: KRS_REGISTERED,
      statusCategory: 'active',
      legalForm: 'SPÓŁKA AKCYJNA',
      address: 'PŁOCK, CHEMIKÓW 7, 09-411 PŁOCK-BIAŁA',
      city: 'PŁOCK',
      incorporationDate: null,
      extra: {
        registeredInKrsOn: '2001-07-19',
        previousRegistration: { register: 'RHB', number: '780', court: 'SĄD REJONOWY W PŁOCKU' },
        nip: '7740001454',
        regon: '610188201',
      },
    });
    expect(officers.map((o) => o.role)).toEqual([
      'PREZES ZARZĄDU',
      'WICEPREZES ZARZĄDU DS. OPERACYJNYCH',
      'WICEPREZES ZARZĄDU DO SPRAW UPSTREAM',
      'WICEPREZES ZARZĄDU DS. DOWNSTREAM',
      'WICEPREZES ZARZĄDU DS. CONSUMERS AND PRODUCTS',
      'WICEPREZES ZARZĄDU DS. ROZWOJU I INWESTYCJI',
      'WICEPREZES ZARZĄDU DS. ENERGY',
      'WICEPREZES ZARZĄDU DS. FINANSOWYCH',
      'CZŁONEK ZARZĄDU DS. BEZPIECZEŃSTWA I RYZYKA',
    ]);
  });

  it.each([GYM, WOSP, ORLEN])('shows every board member of %s masked exactly as the ministry gives them', (file) => {
    const body = load(file);
    const sklad: any[] = body.odpis.dane.dzial2.reprezentacja.sklad;
    const { officers } = parseOdpisAktualny(body);
    expect(officers).toHaveLength(sklad.length);
    officers.forEach((o, i) => {
      const m = sklad[i];
      const surname = [m.nazwisko.nazwiskoICzlon, m.nazwisko.nazwiskoIICzlon].filter(Boolean).join('-');
      expect(o.name).toBe([m.imiona.imie, m.imiona.imieDrugie, surname].filter(Boolean).join(' '));
      expect(o.name).toMatch(MASKED_NAME);
    });
  });

  it('reads the statutory suffix of a name in liquidation as the status (derived extract)', () => {
    const { record } = parseOdpisAktualny(load('krs-odpisaktualny-P-0001268296-derived-w-likwidacji.json'));
    expect(record).toMatchObject({
      name: 'GYM CENTER 8.0 SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ W LIKWIDACJI',
      status: 'W LIKWIDACJI',
      statusCategory: 'in_liquidation',
    });
  });

  it('reads a renamed and moved company (derived extract) with a flat number after a slash', () => {
    const { record } = parseOdpisAktualny(load('krs-odpisaktualny-P-0001268296-derived-renamed-moved.json'));
    expect(record).toMatchObject({
      name: 'GYM CENTER 9.0 SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ',
      address: 'UL. PIERWSZA 2/5, 31-445 KRAKÓW',
      status: KRS_REGISTERED,
    });
  });

  it('keeps a NIP or REGON that fails its check digit, with a warning, never dropping it', () => {
    const body = load(GYM);
    body.odpis.dane.dzial1.danePodmiotu.identyfikatory = { nip: '9452336419', regon: '54577292500000' };
    expect(parseOdpisAktualny(body).record.extra).toMatchObject({
      nip: '9452336419',
      regon: '54577292500000',
      identifierWarnings: [
        "The register's NIP 9452336419 fails the NIP check digit.",
        "The register's REGON 54577292500000 fails the REGON check digit.",
      ],
    });
    // A number that fails its check is no number a query can be recognised as: not among the other numbers.
    expect(parseOdpisAktualny(body).record.extra).not.toHaveProperty('otherNumbers');
  });

  it('reads a NIP written with dashes as its digits, and keeps a value that is no number at all as written', () => {
    const body = load(GYM);
    body.odpis.dane.dzial1.danePodmiotu.identyfikatory = { nip: '945-233-64-18', regon: 'BRAK' };
    expect(parseOdpisAktualny(body).record.extra).toMatchObject({
      nip: '9452336418',
      regon: 'BRAK',
      identifierWarnings: ["The register's REGON BRAK fails the REGON check digit."],
      otherNumbers: ['9452336418'],
    });
  });

  it('marks suspended board members (czyZawieszona) and keeps them among the officers', () => {
    const body = load(ORLEN);
    body.odpis.dane.dzial2.reprezentacja.sklad[1].czyZawieszona = true;
    const { record, officers } = parseOdpisAktualny(body);
    expect(officers).toHaveLength(9);
    expect(record.extra?.suspendedOfficers).toEqual(['R***** S********']);
  });

  it('reads a removal date in the header as struck off (UNVERIFIED field, read by a third-party client)', () => {
    const body = load(GYM);
    body.odpis.naglowekA.dataWykreslenia = '12.08.2027';
    expect(parseOdpisAktualny(body).record).toMatchObject({
      status: KRS_REMOVED,
      statusCategory: 'struck_off',
      extra: { removedOn: '2027-08-12' },
    });
  });

  it('trims strings and never throws on missing or oddly typed optional parts', () => {
    const body = load(GYM);
    const dane = body.odpis.dane;
    dane.dzial1.danePodmiotu.nazwa = '  GYM CENTER 8.0 SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ \n';
    delete dane.dzial1.danePodmiotu.formaPrawna;
    delete dane.dzial1.danePodmiotu.identyfikatory;
    dane.dzial1.siedzibaIAdres = 'KRAKÓW';
    dane.dzial2 = { reprezentacja: { nazwaOrganu: 'ZARZĄD', sklad: 'none' } };
    body.odpis.naglowekA.dataRejestracjiWKRS = '31.02.2026';
    const { record, officers } = parseOdpisAktualny(body);
    expect(record).toMatchObject({
      name: 'GYM CENTER 8.0 SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ',
      legalForm: null,
      address: null,
      city: null,
      incorporationDate: null,
    });
    expect(record.extra).toEqual({ krsRegister: 'P', krsRegisterName: REGISTER_P, registeredInKrsOn: null });
    expect(officers).toEqual([]);
    delete body.odpis.dane.dzial2;
    expect(parseOdpisAktualny(body).officers).toEqual([]);
  });

  it('skips a board member without a name or role rather than inventing one', () => {
    const body = load(GYM);
    body.odpis.dane.dzial2.reprezentacja.sklad.push({ identyfikator: { pesel: '0**********' } }, 42);
    body.odpis.dane.dzial2.reprezentacja.nazwaOrganu = null;
    body.odpis.dane.dzial2.reprezentacja.sklad.push({ nazwisko: { nazwiskoICzlon: 'K*****' } });
    expect(parseOdpisAktualny(body).officers.map((o) => o.name)).toEqual(['D***** K******** M****']);
  });

  it.each([
    ['nothing', null],
    ['an empty object', {}],
    ['an array (a bulletin)', ['5204']],
    ['an HTML page', '<html><body>Przerwa techniczna</body></html>'],
    ['the 404 problem body', { type: 'x', title: 'Not Found', status: 404 }],
  ])('throws invalid_response on %s', (_what, body) => {
    expectInvalidResponse(() => parseOdpisAktualny(body));
  });

  it.each([
    ['no name', (b: any) => delete b.odpis.dane.dzial1.danePodmiotu.nazwa],
    ['a blank name', (b: any) => (b.odpis.dane.dzial1.danePodmiotu.nazwa = '   ')],
    ['a short KRS number', (b: any) => (b.odpis.naglowekA.numerKRS = '1268296')],
    ['an unknown register', (b: any) => (b.odpis.naglowekA.rejestr = 'RejX')],
    ['no header', (b: any) => delete b.odpis.naglowekA],
  ])('throws invalid_response on an extract with %s', (_what, mutate) => {
    const body = load(GYM);
    mutate(body);
    expectInvalidResponse(() => parseOdpisAktualny(body));
  });
});

describe('parseOdpisPelny (full extract)', () => {
  it('agrees with the current extract of the same company and dates the board from its entries', () => {
    const full = parseOdpisPelny(load(GYM_FULL));
    const now = parseOdpisAktualny(load(GYM));
    expect(full.register).toBe('P');
    expect(full.removal).toBeNull();
    expect(full.record).toEqual(now.record);
    expect(full.officers).toEqual([{ ...now.officers[0], appointedOn: '2026-09-22' }]);
  });

  it('takes the version in force of each value (the NIP-only identifiers were struck by entry 3)', () => {
    const body = load(GYM_FULL);
    body.odpis.dane.dzial1.danePodmiotu.identyfikatory.reverse();
    expect(parseOdpisPelny(body).record.extra).toMatchObject({ nip: '9452336418', regon: '545772924' });
  });

  it('reads a member struck by a later entry as a former officer with both dates', () => {
    const body = load(GYM_FULL);
    for (const field of ['nazwisko', 'imiona', 'funkcjaWOrganie']) {
      body.odpis.dane.dzial2.reprezentacja[0].sklad[0][field][0].nrWpisuWykr = '3';
    }
    const { officers, record } = parseOdpisPelny(body);
    expect(officers).toEqual([]);
    expect(record.extra?.formerOfficers).toEqual([
      {
        name: 'D***** K******** M****',
        role: 'PREZES ZARZĄDU',
        kind: 'person',
        appointedOn: '2026-09-22',
        resignedOn: '2026-09-23',
      },
    ]);
  });

  it('reads an entity removed from the register as struck off, with the entry dates (trimmed recording: no name)', () => {
    const { register, record, officers, removal } = parseOdpisPelny(load(LOTOS_REMOVED));
    expect(register).toBe('P');
    expect(removal).toEqual({ on: '2022-08-12', finalOn: '2022-09-02' });
    expect(record).toEqual({
      // The recording's `dane` was emptied by its author: the number stands in for the name.
      name: '0000106150',
      registrationNumber: '0000106150',
      country: 'PL',
      status: KRS_REMOVED,
      statusCategory: 'struck_off',
      legalForm: null,
      address: null,
      city: null,
      incorporationDate: '2002-04-10',
      extra: {
        krsRegister: 'P',
        krsRegisterName: REGISTER_P,
        registeredInKrsOn: '2002-04-10',
        removedOn: '2022-08-12',
        removalFinalOn: '2022-09-02',
        nameNotGiven: true,
      },
    });
    expect(officers).toEqual([]);
  });

  it('keeps the removal when later entries correct the data, and drops it after a new registration entry', () => {
    const body = load(LOTOS_REMOVED);
    const wpis: any[] = body.odpis.naglowekP.wpis;
    wpis.push({ numerWpisu: 149, opis: 'ZMIANA DANYCH W REJESTRZE', dataWpisu: '01.10.2022' });
    expect(parseOdpisPelny(body).record.statusCategory).toBe('struck_off');
    wpis.push({ numerWpisu: 150, opis: KRS_REGISTERED, dataWpisu: '02.10.2022' });
    expect(parseOdpisPelny(body).removal).toBeNull();
  });

  it('throws invalid_response on a current extract or a body without header', () => {
    expectInvalidResponse(() => parseOdpisPelny(load(GYM)));
    expectInvalidResponse(() => parseOdpisPelny({ odpis: { dane: {} } }));
    expectInvalidResponse(() => parseOdpisPelny('not json'));
  });
});

describe('parseKrsProblem', () => {
  it("reads the register's 404 body", () => {
    expect(parseKrsProblem(load('krs-error-404-not-found.json'))).toEqual({ status: 404, title: 'Not Found' });
  });

  it.each([[null], ['<html>404</html>'], [{ odpis: {} }], [{ status: '404' }]])('is null for %p', (body) => {
    expect(parseKrsProblem(body)).toBeNull();
  });
});

describe('KRS values', () => {
  it.each([
    ['22.09.2026', '2026-09-22'],
    ['29.02.2024', '2024-02-29'],
    [' 01.07.2001 ', '2001-07-01'],
    ['29.02.2026', null],
    ['31.04.2026', null],
    ['00.01.2026', null],
    ['01.13.2026', null],
    ['01.01.0001', null],
    ['01.01.2999', null],
    ['2026-09-22', null],
    ['1.1.2026', null],
    ['', null],
    [null, null],
  ])('reads the date %p as %p', (value, iso) => {
    expect(krsDate(value)).toBe(iso);
  });

  const base = {
    ulica: null,
    nrDomu: null,
    nrLokalu: null,
    miejscowosc: null,
    kodPocztowy: null,
    poczta: null,
    kraj: null,
  };
  it.each([
    [
      {
        ulica: 'UL. OSTATNIA',
        nrDomu: '1D',
        nrLokalu: '5',
        miejscowosc: 'KRAKÓW',
        kodPocztowy: '31-444',
        poczta: 'KRAKÓW',
        kraj: 'POLSKA',
      },
      'UL. OSTATNIA 1D/5, 31-444 KRAKÓW',
    ],
    [
      { nrDomu: '1', miejscowosc: 'SZADOWO', kodPocztowy: '82-500', poczta: 'KWIDZYN', kraj: 'POLSKA' },
      'SZADOWO 1, 82-500 KWIDZYN',
    ],
    [
      {
        ulica: '6TH FLOOR, UFONE TOWER',
        miejscowosc: 'ISLAMABAD',
        kodPocztowy: '44000',
        poczta: 'ISLAMABAD',
        kraj: 'PAKISTAN',
      },
      '6TH FLOOR, UFONE TOWER, 44000 ISLAMABAD, PAKISTAN',
    ],
    [{ ulica: 'LIPOWA', miejscowosc: 'DĄBRÓWKA' }, 'LIPOWA, DĄBRÓWKA'],
    [{}, null],
  ])('formats %p as a Polish address', (parts, expected) => {
    expect(formatKrsAddress({ ...base, ...parts })).toBe(expected);
  });

  it.each([
    ['ABC SPÓŁKA AKCYJNA W UPADŁOŚCI', 'W UPADŁOŚCI', 'insolvency'],
    ['ABC SPÓŁKA AKCYJNA W UPADŁOŚCI LIKWIDACYJNEJ', 'W UPADŁOŚCI LIKWIDACYJNEJ', 'insolvency'],
    ['ABC SP. Z O.O. W RESTRUKTURYZACJI', 'W RESTRUKTURYZACJI', 'insolvency'],
    ['Abc sp. z o.o. w likwidacji', 'W LIKWIDACJI', 'in_liquidation'],
    ['W LIKWIDACJI SPÓŁKA Z O.O. NOWA', KRS_REGISTERED, 'active'],
    ['FUNDACJA WIELKA ORKIESTRA ŚWIĄTECZNEJ POMOCY', KRS_REGISTERED, 'active'],
  ])('reads the status of %p from its suffix', (name, status, statusCategory) => {
    expect(nameStatus(name)).toEqual({ status, statusCategory });
  });
});
