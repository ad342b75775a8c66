import { readCaOpenData } from './ca-open-data.reader';
import { chunked, collect, fixtureText, openDataFile, readerContext } from '../../../test/support/dataset-fixtures';

const CORPORATIONS = [
  'registers/ca/corpcan-opendata-corporation-1007-abbotsford-chamber-bota.xml',
  'registers/ca/corpcan-opendata-corporation-16292721-numbered-cbca-2024.xml',
];

describe('CA federal corporations open-data reader', () => {
  it('reads the real corporations: current name, status and act wording, office address, BN9', async () => {
    let producedAt: Date | undefined;
    const xml = openDataFile(CORPORATIONS.map(fixtureText));
    const { rows, rejections } = await collect(
      readCaOpenData,
      chunked(xml, 211),
      readerContext('CA', (d) => (producedAt = d)),
    );
    expect(producedAt?.toISOString()).toBe('2024-09-10T05:00:00.000Z');
    expect(rejections).toEqual([]);
    expect(rows).toEqual([
      {
        country: 'CA',
        registrationNumber: '1007',
        otherNumbers: ['106679285'],
        name: 'Abbotsford Chamber of Commerce',
        status: 'Active',
        statusCategory: 'active',
        legalForm: 'Boards of Trade Act — Part II',
        address: '207 - 32900 SOUTH FRASER WAY, ABBOTSFORD BC V2S 5A1',
        city: 'ABBOTSFORD',
        incorporationDate: '1947-01-10',
        sourceUrl: 'https://ised-isde.canada.ca/cc/lgcy/fdrlCrpDtls.html?corpId=1007',
        extra: { businessNumber: '106679285' },
      },
      {
        country: 'CA',
        registrationNumber: '16292721',
        otherNumbers: ['754441624'],
        name: '16292721 CANADA INC.',
        status: 'Active',
        statusCategory: 'active',
        legalForm: 'Canada Business Corporations Act',
        address: '751 Rue du Square-Victoria, Montréal QC H2Y 2J3',
        city: 'Montréal',
        incorporationDate: '2024-08-15',
        sourceUrl: 'https://ised-isde.canada.ca/cc/lgcy/fdrlCrpDtls.html?corpId=16292721',
        extra: { businessNumber: '754441624' },
      },
    ]);
  });

  it('maps the status codes to the register wording and keeps unknown act codes apart', async () => {
    const [abbotsford, numbered] = CORPORATIONS.map(fixtureText);
    // Derived from the recorded elements: other documented status codes, an act code not mapped here.
    const dissolved = numbered
      .replace('<status code="1" current="true"', '<status code="11" current="true"')
      .replace('<act code="6"', '<act code="14"');
    const pending = abbotsford.replace('<status code="1" current="true"', '<status code="3" current="true"');
    const { rows } = await collect(readCaOpenData, chunked(openDataFile([dissolved, pending])), readerContext('CA'));
    expect(rows.map((r) => [r.status, r.statusCategory, r.legalForm])).toEqual([
      ['Dissolved', 'dissolved', null],
      ['Active - Dissolution Pending (Non-compliance)', 'struck_off', 'Boards of Trade Act — Part II'],
    ]);
    expect(rows[0].extra).toEqual({ businessNumber: '754441624', actCode: '14' });
  });

  it('rejects a corporation without number or current name, a bad date, and broken XML, then goes on', async () => {
    const [abbotsford, numbered] = CORPORATIONS.map(fixtureText);
    const noId = numbered.replace('corporationId="16292721"', '');
    const noName = numbered.replace(/<names>[\s\S]*<\/names>/, '<names></names>');
    const badDate = numbered.replace(
      '<activity code="1" date="2024-08-15T16:44:02"/>',
      '<activity code="1" date="2024-02-30T00:00:00"/>',
    );
    const broken = numbered.replace('<city>Montréal</city>', '<city>Montréal & Laval</city>');
    const { rows, rejections } = await collect(
      readCaOpenData,
      chunked(openDataFile([noId, noName, badDate, broken, abbotsford])),
      readerContext('CA'),
    );
    expect(rows.map((r) => r.registrationNumber)).toEqual(['1007']);
    expect(rejections.map((r) => [r.at, r.reason])).toEqual([
      [1, 'missing registration number'],
      [2, 'missing name'],
      [3, 'bad date'],
      [4, 'malformed XML'],
    ]);
  });
});
