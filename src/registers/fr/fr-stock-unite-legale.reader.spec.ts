import { readFrStockUniteLegale } from './fr-stock-unite-legale.reader';
import { chunked, collect, fixtureText, readerContext } from '../../../test/support/dataset-fixtures';

const SAMPLE = 'datasets/fr/stockunitelegale-constructed-from-docs-sample.csv';

function sampleLines(): { header: string; rows: string[] } {
  const [header, ...rows] = fixtureText(SAMPLE).trim().split('\n');
  return { header, rows };
}

/** A sample line with some columns replaced (a derived test input, not a register record). */
function withColumns(line: string, header: string, values: Record<string, string>): string {
  const names = header.split(',');
  const cells = line.split(',');
  for (const [k, v] of Object.entries(values)) cells[names.indexOf(k)] = v;
  return cells.join(',');
}

describe('FR StockUniteLegale reader', () => {
  it('reads the sample built from the real units: name, SIREN, INSEE wording, legal form label, dates', async () => {
    const { rows, rejections, skipped } = await collect(
      readFrStockUniteLegale,
      chunked(fixtureText(SAMPLE), 53),
      readerContext('FR'),
    );
    expect(rejections).toEqual([]);
    expect(skipped).toEqual([]);
    expect(rows.map((r) => [r.registrationNumber, r.name, r.status, r.statusCategory])).toEqual([
      ['552032534', 'DANONE', 'Active', 'active'],
      ['880878145', 'GANYMEDE', 'Cessée', 'dissolved'],
      ['901723403', 'GANYMEDE', 'Active', 'active'],
      ['130025265', 'DIRECTION INTERMINISTERIELLE DU NUMERIQUE', 'Active', 'active'],
    ]);
    expect(rows[0]).toEqual({
      country: 'FR',
      registrationNumber: '552032534',
      otherNumbers: [],
      name: 'DANONE',
      status: 'Active',
      statusCategory: 'active',
      legalForm: "SA à conseil d'administration (s.a.i.)",
      // StockUniteLegale has no address: it is in StockEtablissement.
      address: null,
      city: null,
      incorporationDate: '1955-01-01',
      sourceUrl: 'https://annuaire-entreprises.data.gouv.fr/entreprise/552032534',
      extra: { categorieJuridique: '5599', activitePrincipale: '70.10Z', nicSiege: '00703' },
    });
    expect(rows[1].legalForm).toBe('SAS, société par actions simplifiée');
    expect(rows[2].legalForm).toBe('Société civile immobilière');
    expect(rows[3].extra).toEqual({
      categorieJuridique: '7120',
      sigle: 'DINUM',
      activitePrincipale: '84.11Z',
      nicSiege: '00013',
    });
  });

  it('never exposes what a partially diffused unit hides, and skips one left without a public name', async () => {
    const { header, rows } = sampleLines();
    // Derived from the DINUM line: a natural person (1000) under partial diffusion whose
    // names are in the file (as in a private extract) or written [ND].
    const hiddenPerson = withColumns(rows[3], header, {
      statutDiffusionUniteLegale: 'P',
      denominationUniteLegale: '',
      sigleUniteLegale: '[ND]',
      categorieJuridiqueUniteLegale: '1000',
      nomUniteLegale: 'NOM',
      prenom1UniteLegale: 'PRENOM',
    });
    const ndPerson = withColumns(hiddenPerson, header, { nomUniteLegale: '[ND]', prenom1UniteLegale: '[ND]' });
    // The same person fully diffused: the name is built from first name and last name.
    const publicPerson = withColumns(hiddenPerson, header, { statutDiffusionUniteLegale: 'O', sigleUniteLegale: '' });
    // A legal person under P (derived from the DINUM line): its denomination is public, the rest of what it may hide is dropped.
    const partialCompany = withColumns(rows[3], header, { statutDiffusionUniteLegale: 'P' });
    const csv = [header, hiddenPerson, ndPerson, publicPerson, partialCompany].join('\n');
    const { rows: out, skipped } = await collect(readFrStockUniteLegale, chunked(csv), readerContext('FR'));
    expect(skipped).toEqual(['partial diffusion: name not public', 'partial diffusion: name not public']);
    expect(out).toHaveLength(2);
    expect(out[0]).toMatchObject({
      name: 'PRENOM NOM',
      legalForm: 'Entrepreneur individuel',
      registrationNumber: '130025265',
    });
    expect(out[1]).toMatchObject({
      name: 'DIRECTION INTERMINISTERIELLE DU NUMERIQUE',
      extra: { categorieJuridique: '7120', statutDiffusion: 'P' },
    });
    expect(out[1].extra).not.toHaveProperty('sigle');
  });

  it('rejects a missing or malformed SIREN, a bad date and a short line', async () => {
    const { header, rows } = sampleLines();
    const csv = [
      header,
      withColumns(rows[0], header, { siren: '' }),
      withColumns(rows[0], header, { siren: '55203253' }),
      withColumns(rows[1], header, { dateCreationUniteLegale: '2020-13-01' }),
      '552032534,O',
      rows[2],
    ].join('\r\n');
    const { rows: out, rejections } = await collect(readFrStockUniteLegale, chunked(csv), readerContext('FR'));
    expect(out.map((r) => r.registrationNumber)).toEqual(['901723403']);
    expect(rejections).toEqual([
      { at: 2, reason: 'missing registration number', detail: 'siren' },
      { at: 3, reason: 'malformed registration number', detail: 'siren "55203253"' },
      { at: 4, reason: 'bad date', detail: 'dateCreationUniteLegale "2020-13-01"' },
      { at: 5, reason: 'wrong number of columns', detail: '2 instead of 34' },
    ]);
  });
});
