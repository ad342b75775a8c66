import { fixture } from '../../../test/support/fake-register';
import { parseVrOfficers } from './ares-vr-parsers';

const F = 'registers/cz';
const load = (file: string): any => JSON.parse(fixture(`${F}/${file}`));
const ASSECO = 'ares-ekonomicke-subjekty-ico-27074358-asseco.json';
const VR_SAD = 'ares-ekonomicke-subjekty-vr-ico-25063677-sad-sro.json';
const VR_HELLA = 'ares-ekonomicke-subjekty-vr-ico-25834151-hella.json';

describe('parseVrOfficers (GET /ekonomicke-subjekty-vr/{ico})', () => {
  it('reads the current officers, then the former ones, joining the versions of one tenure', () => {
    expect(parseVrOfficers(load(VR_SAD))).toEqual([
      // Two versions (a new surname on 2018-06-09): one tenure, the latest name.
      { name: 'Ing. LENKA KUČEROVÁ', role: 'Prokura', kind: 'person', appointedOn: '2015-05-14', resignedOn: null },
      { name: 'Koen Quaghebeur', role: 'jednatel', kind: 'person', appointedOn: '2010-09-15', resignedOn: null },
      {
        name: 'Michel Albert Petit',
        role: 'jednatel',
        kind: 'person',
        appointedOn: '2002-07-25',
        resignedOn: '2010-09-15',
      },
      {
        name: 'Eva Vyskočilová',
        role: 'jednatel',
        kind: 'person',
        appointedOn: '2000-05-29',
        resignedOn: '2002-07-25',
      },
      // No dates of function: the entry and removal dates stand in.
      { name: 'Antonín Štěpán', role: 'jednatel', kind: 'person', appointedOn: '1996-07-08', resignedOn: '2000-10-19' },
      // Old free text in the surname: the birth note is dropped.
      {
        name: 'Anne - Marie Dewinter',
        role: 'jednatel',
        kind: 'person',
        appointedOn: '1997-06-03',
        resignedOn: '2000-10-19',
      },
    ]);
  });

  it('ends a tenure at the end of function, and keeps the same person in another role apart', () => {
    const officers = parseVrOfficers(load(VR_HELLA));
    expect(officers.filter((o) => o.resignedOn === null)).toEqual([
      { name: 'Ing. PETR NOVOTNÝ', role: 'jednatel', kind: 'person', appointedOn: '2016-05-01', resignedOn: null },
      { name: 'KAREL BILL', role: 'Prokura', kind: 'person', appointedOn: '2014-08-05', resignedOn: null },
    ]);
    expect(officers.filter((o) => /ryšavý/i.test(o.name))).toEqual([
      // Two versions (2009–2014, 2014–2015, "Marek" then "MAREK"); the function ended on 2015-04-08.
      {
        name: 'Ing. MAREK RYŠAVÝ',
        role: 'jednatel',
        kind: 'person',
        appointedOn: '2009-07-07',
        resignedOn: '2015-04-08',
      },
      {
        name: 'Ing. Marek Ryšavý',
        role: 'Prokura',
        kind: 'person',
        appointedOn: '2008-08-29',
        resignedOn: '2009-08-14',
      },
    ]);
    expect(officers).toHaveLength(6);
  });

  it('shows as current exactly the members whose version has neither a removal date nor an end of function', () => {
    for (const file of [VR_SAD, VR_HELLA]) {
      const vr = load(file);
      const open = vr.zaznamy[0].statutarniOrgany
        .flatMap((o: any) => o.clenoveOrganu)
        .filter((m: any) => !m.datumVymazu && !m.clenstvi?.funkce?.zanikFunkce);
      const officers = parseVrOfficers(vr);
      expect(officers.filter((o) => o.resignedOn === null)).toHaveLength(open.length);
      // Names, roles and dates only: no birth dates, no home addresses.
      for (const o of officers)
        expect(Object.keys(o).sort()).toEqual(['appointedOn', 'kind', 'name', 'resignedOn', 'role']);
    }
  });

  it('reads a company as a member (derived: a current member replaced by a recorded legal-person shareholder)', () => {
    const vr = load(VR_SAD);
    const company = vr.zaznamy[0].spolecnici[0].spolecnik.find((s: any) => !s.datumVymazu).osoba.pravnickaOsoba;
    const organ = vr.zaznamy[0].statutarniOrgany[1];
    const member = organ.clenoveOrganu.find((m: any) => !m.datumVymazu);
    delete member.fyzickaOsoba;
    member.pravnickaOsoba = company;
    const officers = parseVrOfficers(vr);
    expect(officers).toContainEqual({
      name: 'K & E SPRL',
      role: 'jednatel',
      kind: 'company',
      appointedOn: '2010-09-15',
      resignedOn: null,
    });
  });

  it('ends every tenure of a subject deleted from VR, and of a deleted body, on its deletion', () => {
    const deleted = load(VR_HELLA);
    deleted.zaznamy[0].datumVymazu = '2024-12-31';
    expect(parseVrOfficers(deleted).filter((o) => o.resignedOn === null)).toEqual([]);
    expect(parseVrOfficers(deleted)).toContainEqual(
      expect.objectContaining({ name: 'KAREL BILL', resignedOn: '2024-12-31' }),
    );
    const organGone = load(VR_HELLA);
    organGone.zaznamy[0].statutarniOrgany[1].datumVymazu = '2023-01-31';
    expect(parseVrOfficers(organGone)).toContainEqual(
      expect.objectContaining({ name: 'KAREL BILL', resignedOn: '2023-01-31' }),
    );
  });

  it('reads the supervisory and other bodies (ostatniOrgany) too', () => {
    const vr = load(VR_SAD);
    vr.zaznamy[0].ostatniOrgany = [
      {
        datumZapisu: '2014-09-04',
        nazevOrganu: 'Dozorčí rada',
        clenoveOrganu: [
          {
            datumZapisu: '2014-09-04',
            nazevAngazma: 'Člen dozorčí rady',
            clenstvi: { clenstvi: { vznikClenstvi: '2014-08-01' } },
            fyzickaOsoba: { jmeno: ' Jan ', prijmeni: 'Novák', titulZaJmenem: 'Ph.D.' },
          },
        ],
      },
    ];
    expect(parseVrOfficers(vr)).toContainEqual({
      name: 'Jan Novák, Ph.D.',
      role: 'Člen dozorčí rady',
      kind: 'person',
      appointedOn: '2014-08-01',
      resignedOn: null,
    });
  });

  it('skips members without a name or role, and reads a record without bodies', () => {
    expect(
      parseVrOfficers({
        zaznamy: [{ statutarniOrgany: [{ clenoveOrganu: [{ skrytyUdaj: { hodnota: 'x' } }, null, 'x'] }] }],
      }),
    ).toEqual([]);
    expect(parseVrOfficers({ icoId: '25063677', zaznamy: [] })).toEqual([]);
  });

  it('throws invalid_response on a body of the wrong shape', () => {
    for (const body of [null, [], load(ASSECO), { zaznamy: {} }]) {
      expect(() => parseVrOfficers(body)).toThrow(expect.objectContaining({ errorClass: 'invalid_response' }));
    }
  });
});
