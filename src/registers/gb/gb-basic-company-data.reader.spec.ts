import { gbLegalForm, gbStatus, readGbBasicCompanyData } from './gb-basic-company-data.reader';
import { copyTextLine } from '../../dataset/import/company-writer';
import { normalizeName } from '../../dataset/normalize-name';
import { chunked, collect, fixtureText, readerContext } from '../../../test/support/dataset-fixtures';

const SAMPLE = 'registers/gb/ch-bulk-basiccompanydata-sample.csv';

describe('GB BasicCompanyData reader', () => {
  it('reads the real sample: names, zero-padded numbers, status, category, dates, address', async () => {
    const { rows, rejections } = await collect(
      readGbBasicCompanyData,
      chunked(fixtureText(SAMPLE), 97),
      readerContext('GB'),
    );
    expect(rejections).toEqual([]);
    expect(rows.map((r) => [r.registrationNumber, r.name])).toEqual([
      ['12778855', '! LIMITED'],
      ['08209948', '! LTD'],
      ['11399177', '!? LTD'],
    ]);
    const ltd = rows[1];
    expect(ltd).toEqual({
      country: 'GB',
      registrationNumber: '08209948',
      otherNumbers: [],
      name: '! LTD',
      status: 'Active',
      statusCategory: 'active',
      legalForm: 'Private limited company',
      address: 'METROHOUSE 57 PEPPER ROAD, HUNSLET, LEEDS, YORKSHIRE, LS10 2RU',
      city: 'LEEDS',
      incorporationDate: '2012-09-11',
      sourceUrl: 'https://find-and-update.company-information.service.gov.uk/company/08209948',
      extra: { sicCodes: ['99999 - Dormant Company'] },
      copyPlain: true,
    });
    expect(rows[0].address).toBe(
      'UNIT 3 NEWTON BUSINESS CENTRE, NEWTON CHAMBERS ROAD, SHEFFIELD, UNITED KINGDOM, S35 2PH',
    );
    expect(rows[0].incorporationDate).toBe('2020-07-29');
    expect(rows[2].city).toBe('ROMILEY');
  });

  it('rejects broken rows, a missing number and a bad date, and goes on', async () => {
    const [header, first, second, third] = fixtureText(SAMPLE).trim().split('\n');
    const noNumber = first.replace('"12778855"', '""');
    const badDate = second.replace('"11/09/2012"', '"31/02/2012"');
    const shortRow = '"BROKEN LTD","12345678","x"';
    const csv = [header, noNumber, badDate, shortRow, third].join('\n');
    const { rows, rejections } = await collect(readGbBasicCompanyData, chunked(csv, 64), readerContext('GB'));
    expect(rows.map((r) => r.registrationNumber)).toEqual(['11399177']);
    expect(rejections).toEqual([
      { at: 2, reason: 'missing registration number', detail: 'CompanyNumber' },
      { at: 3, reason: 'bad date', detail: 'IncorporationDate "31/02/2012"' },
      { at: 4, reason: 'wrong number of columns', detail: '3 instead of 55' },
    ]);
  });

  it('reads every spelling of a date as the checked dd/mm/yyyy reading does, the quick way or not', async () => {
    const [header, line] = fixtureText(SAMPLE).trim().split('\n');
    const cases: Array<[string, string | null]> = [
      ['11/09/2012', '2012-09-11'],
      ['28/02/2023', '2023-02-28'],
      ['29/02/2024', '2024-02-29'],
      ['31/12/1999', '1999-12-31'],
      ['1/2/2003', '2003-02-01'],
      [' 01/02/2003 ', '2003-02-01'],
      ['', null],
      ['   ', null],
      ['29/02/2023', 'bad date'],
      ['31/04/2020', 'bad date'],
      ['00/01/2020', 'bad date'],
      ['01/13/2020', 'bad date'],
      ['01/00/2020', 'bad date'],
      ['01/02/0999', 'bad date'],
      ['0a/02/2003', 'bad date'],
      ['01/02/20x3', 'bad date'],
      ['01-02-2003', 'bad date'],
      ['01/02/200300', 'bad date'],
    ];
    const lines = cases.map(([value], i) =>
      line.replace('"12778855"', `"${String(i + 1).padStart(8, '0')}"`).replace('"29/07/2020"', `"${value}"`),
    );
    const { rows, rejections } = await collect(
      readGbBasicCompanyData,
      chunked([header, ...lines].join('\n'), 50),
      readerContext('GB'),
    );
    const read = cases.map((_, i) => {
      const row = rows.find((r) => r.registrationNumber === String(i + 1).padStart(8, '0'));
      return row ? row.incorporationDate : rejections.find((r) => r.at === i + 2)?.reason;
    });
    expect(read).toEqual(cases.map(([, expected]) => expected));
  });

  it('vouches for COPY only for rows with nothing to escape: every COPY line is the checked one', async () => {
    const [header, line] = fixtureText(SAMPLE).trim().split('\n');
    const names = [
      'PLAIN ONE LTD',
      'BACK\\SLASH LTD',
      'TAB\tLTD',
      'PLAIN TWO LTD',
      'LINE\r\nBREAK LTD',
      'QUOTE ""Q"" LTD',
      'PLAIN THREE LTD',
    ];
    const lines = names.map((name, i) =>
      line.replace('"12778855"', `"${String(i + 1).padStart(8, '0')}"`).replace('"! LIMITED"', `"${name}"`),
    );
    for (const size of [100, 700, 1 << 20]) {
      const { rows } = await collect(
        readGbBasicCompanyData,
        chunked([header, ...lines].join('\r\n'), size),
        readerContext('GB'),
      );
      expect(rows).toHaveLength(names.length);
      const complete = rows.map((r) => ({
        ...r,
        nameNormalized: normalizeName(r.name),
        sourceKind: 'dataset:x',
        datasetName: 'x',
        producedAt: '2026-11-01T00:00:00.000Z',
      }));
      for (const r of complete) expect(copyTextLine(r)).toBe(copyTextLine({ ...r, copyPlain: false }));
      for (const r of rows.filter((r) => /[\\\t\r\n]/.test(r.name))) expect(r.copyPlain).toBe(false);
      if (size === 100) expect(rows.some((r) => r.copyPlain)).toBe(true);
    }
  });

  it('rejects an unreadable CSV record without losing the next ones', async () => {
    const [header, first, second] = fixtureText(SAMPLE).trim().split('\n');
    const broken = first.replace('"! LIMITED"', '"! "LIMITED"');
    const { rows, rejections } = await collect(
      readGbBasicCompanyData,
      chunked([header, broken, second].join('\n')),
      readerContext('GB'),
    );
    expect(rows.map((r) => r.registrationNumber)).toEqual(['08209948']);
    expect(rejections).toHaveLength(1);
    expect(rejections[0].reason).toBe('unreadable CSV record');
  });

  it('refuses a file that is not BasicCompanyData', async () => {
    await expect(collect(readGbBasicCompanyData, chunked('a,b\n1,2\n'), readerContext('GB'))).rejects.toThrow(
      /header lacks CompanyName, CompanyNumber/,
    );
  });

  it('words statuses and legal forms as the GB connector does, keeping bulk-only labels', () => {
    expect(gbStatus('Active')).toEqual({ status: 'Active', statusCategory: 'active' });
    expect(gbStatus('Liquidation')).toEqual({ status: 'Liquidation', statusCategory: 'in_liquidation' });
    expect(gbStatus('In Administration')).toEqual({ status: 'In Administration', statusCategory: 'insolvency' });
    expect(gbStatus('Active - Proposal to Strike off')).toEqual({
      status: 'Active — Active proposal to strike off',
      statusCategory: 'active',
    });
    expect(gbStatus('RECEIVER MANAGER / ADMINISTRATIVE RECEIVER')).toEqual({
      status: 'RECEIVER MANAGER / ADMINISTRATIVE RECEIVER',
      statusCategory: 'insolvency',
    });
    expect(gbStatus(null)).toEqual({ status: null, statusCategory: 'unknown' });
    expect(gbLegalForm('PRIVATE LIMITED COMPANY')).toBe('Private limited company');
    expect(gbLegalForm('Community Interest Company')).toBe('Community Interest Company');
  });
});
