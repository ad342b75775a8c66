import type { CompanyRow } from './company-writer';
import { copyTextLine } from './company-writer';

const row = (over: Partial<CompanyRow> = {}): CompanyRow => ({
  country: 'GB',
  registrationNumber: '01234567',
  otherNumbers: [],
  name: 'ACME LIMITED',
  nameNormalized: 'acme limited',
  status: 'Active',
  statusCategory: 'active',
  legalForm: null,
  address: null,
  city: null,
  incorporationDate: '2001-02-03',
  sourceUrl: 'https://example.invalid/company/01234567',
  extra: null,
  sourceKind: 'dataset:one',
  datasetName: 'one',
  producedAt: '2026-11-01T00:00:00.000Z',
  ...over,
});

describe('copyTextLine', () => {
  it('writes the columns in order, NULL as \\N and no other numbers as {}', () => {
    expect(copyTextLine(row())).toBe(
      'GB\t01234567\t{}\tACME LIMITED\tacme limited\tActive\tactive\t\\N\t\\N\t\\N\t2001-02-03\thttps://example.invalid/company/01234567\tdataset:one\tone\t2026-11-01T00:00:00.000Z\t\\N\n',
    );
  });

  it('escapes what COPY reads as a separator or an escape, in values, arrays and extra', () => {
    const line = copyTextLine(
      row({ name: 'A\tB\\C\nD\rE', otherNumbers: ['x"y', 'z\\w'], address: 'line\tone', extra: { note: 'a\nb' } }),
    );
    const fields = line.slice(0, -1).split('\t');
    expect(fields).toHaveLength(16);
    expect(fields[2]).toBe('{"x\\\\"y","z\\\\\\\\w"}');
    expect(fields[3]).toBe('A\\tB\\\\C\\nD\\rE');
    expect(fields[8]).toBe('line\\tone');
    expect(fields[15]).toBe('{"note":"a\\\\nb"}');
  });

  it('writes the same line for a row whose reader vouched for it, its extra still escaped', () => {
    const safe = row({
      legalForm: 'Private limited company',
      address: '1 HIGH STREET, LEEDS',
      city: 'LEEDS',
      extra: { sicCodes: ['A "quoted" activity'] },
    });
    expect(copyTextLine({ ...safe, copyPlain: true })).toBe(copyTextLine(safe));
    expect(copyTextLine({ ...safe, copyPlain: true }).split('\t')[15]).toBe(
      '{"sicCodes":["A \\\\"quoted\\\\" activity"]}\n',
    );
  });

  it('follows a change of provenance from one row to the next', () => {
    expect(copyTextLine(row()).split('\t').slice(12, 15)).toEqual(['dataset:one', 'one', '2026-11-01T00:00:00.000Z']);
    expect(
      copyTextLine(row({ sourceKind: 'dataset:two', datasetName: 'two' }))
        .split('\t')
        .slice(12, 15),
    ).toEqual(['dataset:two', 'two', '2026-11-01T00:00:00.000Z']);
    expect(
      copyTextLine(row({ producedAt: '2026-12-01T00:00:00.000Z' }))
        .split('\t')
        .slice(12, 15),
    ).toEqual(['dataset:one', 'one', '2026-12-01T00:00:00.000Z']);
  });
});
