import { readNoEnheter } from './no-enheter.reader';
import { chunked, collect, readerContext, realEnheter } from '../../../test/support/dataset-fixtures';

describe('NO enheter reader', () => {
  it('streams the JSON array through the NO connector parser: names, numbers, status wording, address', async () => {
    const units = realEnheter();
    const { rows, rejections } = await collect(
      readNoEnheter,
      chunked(JSON.stringify(units, null, 1), 113),
      readerContext('NO'),
    );
    expect(rejections).toEqual([]);
    expect(rows.map((r) => [r.registrationNumber, r.name, r.status, r.statusCategory])).toEqual([
      ['112233445', 'SESAM STASJON', 'Registrert', 'active'],
      ['123456789', 'SLETTET ENHET AS', 'Slettet', 'dissolved'],
      ['976030788', 'SESAM AS', 'Registrert', 'active'],
      ['971497017', 'SESAM FAMILIEBARNEHAGE', 'Registrert', 'active'],
      ['883603362', 'ABG SUNDAL COLLIER ASA', 'Registrert', 'active'],
      ['961095026', 'ABG SUNDAL COLLIER HOLDING ASA', 'Registrert', 'active'],
      ['913757424', 'ABL GROUP ASA', 'Registrert', 'active'],
      ['938702675', 'AF GRUPPEN ASA', 'Registrert', 'active'],
      ['923974709', 'AGILYX ASA', 'Registrert', 'active'],
    ]);
    expect(rows[0]).toEqual({
      country: 'NO',
      registrationNumber: '112233445',
      otherNumbers: [],
      name: 'SESAM STASJON',
      status: 'Registrert',
      statusCategory: 'active',
      legalForm: 'Aksjeselskap',
      address: 'Tyvholmen 1, 0101 OSLO',
      city: 'OSLO',
      incorporationDate: '2017-10-20',
      sourceUrl: 'https://virksomhet.brreg.no/nb/oppslag/enheter/112233445',
      extra: { organisasjonsform: 'AS', registreringsdatoEnhetsregisteret: '2017-10-20' },
    });
    expect(rows[1].extra).toMatchObject({ slettedato: '2017-10-20' });
    expect(rows[2]).toMatchObject({
      address: 'Elgeseter gate 1, 7030 TRONDHEIM',
      city: 'TRONDHEIM',
      incorporationDate: '1995-12-12',
    });
  });

  it('rejects a unit without number, with a malformed number, without a name or with a bad date', async () => {
    const [stasjon, , sesam] = realEnheter();
    const units = [
      { ...stasjon, organisasjonsnummer: undefined },
      { ...stasjon, organisasjonsnummer: '11223344' },
      { ...stasjon, navn: '  ' },
      { ...stasjon, stiftelsesdato: '2017-02-30' },
      'not an object',
      sesam,
    ];
    const { rows, rejections } = await collect(readNoEnheter, chunked(JSON.stringify(units)), readerContext('NO'));
    expect(rows.map((r) => r.registrationNumber)).toEqual(['976030788']);
    expect(rejections).toEqual([
      { at: 1, reason: 'missing registration number', detail: 'organisasjonsnummer' },
      { at: 2, reason: 'malformed registration number', detail: 'organisasjonsnummer "11223344"' },
      { at: 3, reason: 'missing name', detail: 'navn' },
      { at: 4, reason: 'bad date', detail: 'stiftelsesdato "2017-02-30"' },
      { at: 5, reason: 'not a unit object', detail: 'string' },
    ]);
  });

  it('fails the file, readably, when it is not a JSON array', async () => {
    await expect(
      collect(readNoEnheter, chunked('{"organisasjonsnummer": "976030788"'), readerContext('NO')),
    ).rejects.toThrow(/not a JSON array of units/);
  });
});
