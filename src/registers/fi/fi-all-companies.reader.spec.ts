import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openInput } from '../bulk/open-input';
import { chunked, collect, fixtureText, readerContext } from '../../../test/support/dataset-fixtures';
import { makeZip } from '../../../test/support/zip';
import { readFiAllCompanies } from './fi-all-companies.reader';
import { FI_BULK_FORMATS } from './fi.bulk-formats';

const SAMPLE = 'datasets/fi/prh-ytj-v3-all-companies-derived-sample.json';

const ctx = readerContext('FI');

function sample(): any[] {
  return JSON.parse(fixtureText(SAMPLE));
}

describe('FI /all_companies reader', () => {
  it('streams the JSON array through the FI connector parser: names, numbers, status wording, address', async () => {
    for (const size of [7, 113, 64 * 1024]) {
      const { rows, rejections } = await collect(readFiAllCompanies, chunked(fixtureText(SAMPLE), size), ctx);
      expect(rejections).toEqual([]);
      expect(rows.map((r) => [r.registrationNumber, r.name, r.status, r.statusCategory, r.legalForm])).toEqual([
        ['0112038-9', 'Nokia Oyj', 'Rekisterissä', 'active', 'Julkinen osakeyhtiö'],
        ['9876543-0', 'Esimerkki Nokia Oy', 'Selvitystila', 'in_liquidation', 'Osakeyhtiö'],
        ['9000001-1', 'Esimerkki Nokia Ky', 'Lakannut', 'dissolved', null],
      ]);
      expect(rows[0]).toEqual({
        country: 'FI',
        registrationNumber: '0112038-9',
        otherNumbers: [],
        name: 'Nokia Oyj',
        status: 'Rekisterissä',
        statusCategory: 'active',
        legalForm: 'Julkinen osakeyhtiö',
        address: 'Karakaari 7, 02610 ESPOO',
        city: 'ESPOO',
        incorporationDate: '1896-12-19',
        sourceUrl: 'https://tietopalvelu.ytj.fi/yritys/0112038-9',
        extra: {
          companyForm: '17',
          tradeRegisterStatus: '1',
          businessIdRegistrationDate: '1978-03-15',
          euId: 'FIFPRO.0112038-9',
          lastModified: '2026-08-19T10:04:06',
        },
      });
      expect(rows[2]).toMatchObject({ address: 'Norgårdsvägen 3 SE-451 75 Uddevalla', city: null });
    }
  });

  describe('from the zip PRH serves', () => {
    let dir: string;
    beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'rl-fi-all-companies-'))));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('reads the JSON entry of the zip (data_<yyyymmdd>.json)', async () => {
      const zip = join(dir, 'all_companies.zip');
      writeFileSync(zip, makeZip([{ name: 'data_20260709.json', data: fixtureText(SAMPLE) }]));
      const [format] = FI_BULK_FORMATS;
      const input = await openInput(zip, { entryPattern: format.zipEntry });
      const names: string[] = [];
      const numbers: string[] = [];
      for await (const part of input.parts()) {
        names.push(part.name);
        const { rows } = await collect(format.read, part.stream, ctx);
        numbers.push(...rows.map((r) => r.registrationNumber));
      }
      expect(input.compression).toBe('zip');
      expect(names).toEqual(['data_20260709.json']);
      expect(numbers).toEqual(['0112038-9', '9876543-0', '9000001-1']);
    });
  });

  it('rejects what is not a company: no or malformed business ID, no trade name, a bad date', async () => {
    const [nokia, esimerkki] = sample();
    const companies = [
      { ...nokia, businessId: undefined },
      { ...nokia, businessId: { value: '01120389' } },
      { ...nokia, names: nokia.names.filter((n: any) => n.type !== '1') },
      { ...nokia, registrationDate: '1896-02-30' },
      { ...nokia, endDate: 'lakannut' },
      'not an object',
      esimerkki,
    ];
    const { rows, rejections } = await collect(readFiAllCompanies, chunked(JSON.stringify(companies)), ctx);
    expect(rows.map((r) => r.registrationNumber)).toEqual(['9876543-0']);
    expect(rejections).toEqual([
      { at: 1, reason: 'missing registration number', detail: 'businessId.value' },
      { at: 2, reason: 'malformed registration number', detail: 'businessId.value "01120389"' },
      { at: 3, reason: 'missing name', detail: 'names (type 1)' },
      { at: 4, reason: 'bad date', detail: 'registrationDate "1896-02-30"' },
      { at: 5, reason: 'bad date', detail: 'endDate "lakannut"' },
      { at: 6, reason: 'not a company object', detail: 'string' },
    ]);
  });

  it('fails the file, readably, when it is not a JSON array', async () => {
    await expect(collect(readFiAllCompanies, chunked('{"totalResults": 1, "companies": []}'), ctx)).rejects.toThrow(
      /not a JSON array of units/,
    );
  });
});
