import { readDkVirksomhed } from './dk-virksomhed.reader';
import { chunked, collect, readerContext, realVirksomhedLines } from '../../../test/support/dataset-fixtures';

describe('DK virksomhed dump reader', () => {
  it('reads one hit per line through the DK connector parser', async () => {
    const { rows, rejections } = await collect(
      readDkVirksomhed,
      chunked(realVirksomhedLines().join('\n') + '\n', 4096),
      readerContext('DK'),
    );
    expect(rejections).toEqual([]);
    expect(rows.map((r) => [r.registrationNumber, r.name, r.status, r.statusCategory, r.legalForm])).toEqual([
      ['25052943', 'MAGENTA ApS', 'NORMAL', 'active', 'Anpartsselskab'],
      ['35682872', 'ASSURE WEALTH A/S', 'NORMAL', 'active', 'Aktieselskab'],
      ['42611433', 'Assure Alternatives A/S', 'NORMAL', 'active', 'Aktieselskab'],
      ['34689733', 'MIRANOVA FONDSMÆGLERSELSKAB A/S', 'NORMAL', 'active', 'Aktieselskab'],
      ['44477378', 'Assure Alternatives TG Partners VIII Feeder K/S', 'NORMAL', 'active', 'Kommanditselskab'],
      ['41774037', 'Tietgen Invest ApS', 'NORMAL', 'active', 'Anpartsselskab'],
      [
        '11617034',
        'F.L.Smidth fonden for diplomingeniørstuderende ved DTU',
        'Aktiv',
        'active',
        'Fonde og andre selvejende institutioner',
      ],
    ]);
    expect(rows[0]).toEqual({
      country: 'DK',
      registrationNumber: '25052943',
      otherNumbers: [],
      name: 'MAGENTA ApS',
      status: 'NORMAL',
      statusCategory: 'active',
      legalForm: 'Anpartsselskab',
      address: 'Pilestræde 43, 3., 1112 København K',
      city: 'København K',
      incorporationDate: '1999-11-15',
      sourceUrl: 'https://datacvr.virk.dk/enhed/virksomhed/25052943',
      extra: { reklamebeskyttet: true },
    });
    expect(rows[5]).toMatchObject({
      city: 'Hørsholm',
      incorporationDate: '2020-10-18',
      extra: { reklamebeskyttet: false },
    });
  });

  it('accepts the bare _source or document per line, CRLF and blank lines', async () => {
    const [magenta] = realVirksomhedLines();
    const hit = JSON.parse(magenta) as { _source: { Vrvirksomhed: unknown } };
    const lines = [JSON.stringify(hit._source), '', JSON.stringify({ Vrvirksomhed: hit._source.Vrvirksomhed })].join(
      '\r\n',
    );
    const { rows, rejections } = await collect(readDkVirksomhed, chunked(lines, 1000), readerContext('DK'));
    expect(rejections).toEqual([]);
    expect(rows.map((r) => r.registrationNumber)).toEqual(['25052943', '25052943']);
  });

  it('rejects broken JSON, a hit without document, a missing number, a missing name and bad dates', async () => {
    const [magenta, wealth] = realVirksomhedLines();
    const doc = (JSON.parse(magenta) as { _source: { Vrvirksomhed: Record<string, unknown> } })._source.Vrvirksomhed;
    const meta = doc.virksomhedMetadata as Record<string, unknown>;
    const lines = [
      magenta.slice(0, 500),
      JSON.stringify({ _source: { Vrdeltagerperson: {} } }),
      JSON.stringify({ _source: { Vrvirksomhed: { ...doc, cvrNummer: null } } }),
      JSON.stringify({
        _source: { Vrvirksomhed: { ...doc, navne: [], virksomhedMetadata: { ...meta, nyesteNavn: null } } },
      }),
      JSON.stringify({
        _source: { Vrvirksomhed: { ...doc, virksomhedMetadata: { ...meta, stiftelsesDato: '1999-11-31' } } },
      }),
      // Without a founding date, the first period's start is the date: year 0 is no date (Postgres refuses it).
      JSON.stringify({
        _source: {
          Vrvirksomhed: {
            ...doc,
            livsforloeb: [{ periode: { gyldigFra: '0000-01-01', gyldigTil: null } }],
            virksomhedMetadata: { ...meta, stiftelsesDato: null },
          },
        },
      }),
      wealth,
    ];
    const { rows, rejections } = await collect(readDkVirksomhed, chunked(lines.join('\n'), 2048), readerContext('DK'));
    expect(rows.map((r) => r.registrationNumber)).toEqual(['35682872']);
    expect(rejections.map((r) => [r.at, r.reason])).toEqual([
      [1, 'malformed JSON'],
      [2, 'not a virksomhed document'],
      [3, 'missing registration number'],
      [4, 'missing name'],
      [5, 'bad date'],
      [6, 'bad date'],
    ]);
    expect(rejections[4].detail).toBe('virksomhedMetadata.stiftelsesDato "1999-11-31"');
    expect(rejections[5].detail).toBe('livsforloeb.periode.gyldigFra "0000-01-01"');
  });
});
