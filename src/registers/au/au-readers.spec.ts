import { readAuAbnBulk } from './au-abn-bulk.reader';
import { readAuAsicCompanies } from './au-asic-companies.reader';
import { chunked, collect, fixtureText, readerContext } from '../../../test/support/dataset-fixtures';

const ABN_SAMPLE = 'datasets/au/abn-bulk-extract-constructed-from-docs-sample.xml';
const ASIC_SAMPLE = 'datasets/au/asic-company-dataset-constructed-from-docs-sample.tsv';

describe('AU ABN bulk extract reader', () => {
  it('reads the sample built from the recorded ABN record of Oneflare', async () => {
    const { rows, rejections } = await collect(
      readAuAbnBulk,
      chunked(fixtureText(ABN_SAMPLE), 50),
      readerContext('AU'),
    );
    expect(rejections).toEqual([]);
    expect(rows).toEqual([
      {
        country: 'AU',
        registrationNumber: '26154482283',
        otherNumbers: ['154482283'],
        name: 'Oneflare Pty Ltd',
        status: 'Active',
        statusCategory: 'active',
        legalForm: 'Australian Private Company',
        address: 'NSW 2000',
        city: null,
        incorporationDate: null,
        sourceUrl: 'https://abr.business.gov.au/ABN/View?abn=26154482283',
        extra: { acn: '154482283', entityTypeCode: 'PRV', abnStatusFrom: '2011-11-28', gstStatus: 'ACT' },
      },
    ]);
  });

  it('takes the extract time, individuals, cancelled ABNs and other names; rejects broken records', async () => {
    const [decl, , record] = fixtureText(ABN_SAMPLE).trim().split('\n');
    // Derived from the Oneflare record: the documented variants of the same shape.
    const cancelled = record
      .replace('status="ACT"', 'status="CAN"')
      .replace(
        '</ABR>',
        '<OtherEntity><NonIndividualName type="TRD"><NonIndividualNameText>ONEFLARE</NonIndividualNameText></NonIndividualName></OtherEntity></ABR>',
      );
    const individual = record
      .replace(
        /<MainEntity>.*<\/MainEntity>/,
        '<LegalEntity><IndividualName type="LGL"><GivenName>GIVEN</GivenName><GivenName>OTHER</GivenName><FamilyName>FAMILY</FamilyName></IndividualName><BusinessAddress><AddressDetails><State>VIC</State><Postcode>3000</Postcode></AddressDetails></BusinessAddress></LegalEntity>',
      )
      .replace(/<ASICNumber[^>]*>\d+<\/ASICNumber>/, '')
      .replace('26154482283', '53004085616');
    const noAbn = record.replace('>26154482283<', '><');
    const badDate = record.replace('ABNStatusFromDate="20111128"', 'ABNStatusFromDate="20111131"');
    const broken = record.replace('<EntityTypeText>', '<EntityTypeText>&bogus;');
    const info =
      '<TransferInfo><FileSequenceNumber>1</FileSequenceNumber><RecordCount>6</RecordCount><ExtractTime>2025-05-28T02:10:00</ExtractTime></TransferInfo>';
    const xml = [decl, `<Transfer>${info}`, cancelled, individual, noAbn, badDate, broken, record, '</Transfer>'].join(
      '\n',
    );
    let producedAt: Date | undefined;
    const { rows, rejections } = await collect(
      readAuAbnBulk,
      chunked(xml, 64),
      readerContext('AU', (d) => (producedAt = d)),
    );
    expect(producedAt?.toISOString().slice(0, 10)).toBe('2025-05-28');
    expect(rows.map((r) => [r.registrationNumber, r.name, r.status, r.statusCategory, r.address])).toEqual([
      ['26154482283', 'Oneflare Pty Ltd', 'Cancelled', 'dissolved', 'NSW 2000'],
      ['53004085616', 'FAMILY, GIVEN OTHER', 'Active', 'active', 'VIC 3000'],
      ['26154482283', 'Oneflare Pty Ltd', 'Active', 'active', 'NSW 2000'],
    ]);
    expect(rows[0].extra).toMatchObject({ otherNames: ['ONEFLARE'] });
    expect(rows[1].otherNumbers).toEqual([]);
    expect(rejections.map((r) => [r.at, r.reason])).toEqual([
      [3, 'missing registration number'],
      [4, 'bad date'],
      [5, 'malformed XML'],
    ]);
  });

  it('fails a truncated file instead of ending quietly', async () => {
    const text = fixtureText(ABN_SAMPLE);
    await expect(
      collect(readAuAbnBulk, chunked(text.slice(0, text.indexOf('</MainEntity>'))), readerContext('AU')),
    ).rejects.toThrow(/truncated/);
  });
});

describe('AU ASIC company dataset reader', () => {
  it('reads the tab-delimited sample: ABN as key, ACN as other number, ASIC wording', async () => {
    const { rows, rejections, skipped } = await collect(
      readAuAsicCompanies,
      chunked(fixtureText(ASIC_SAMPLE), 30),
      readerContext('AU'),
    );
    expect(rejections).toEqual([]);
    expect(skipped).toEqual([]);
    expect(rows).toEqual([
      {
        country: 'AU',
        registrationNumber: '26154482283',
        otherNumbers: ['154482283'],
        name: 'Oneflare Pty Ltd',
        status: 'Registered',
        statusCategory: 'active',
        legalForm: 'Australian Proprietary Company, Limited by Shares',
        address: null,
        city: null,
        incorporationDate: null,
        sourceUrl: 'https://abr.business.gov.au/ABN/View?abn=26154482283',
        extra: { acn: '154482283', asicStatusCode: 'REGD', asicType: 'APTY', asicClass: 'LMSH' },
      },
    ]);
  });

  it('reads the comma-delimited variant, maps every status code, keeps only current names', async () => {
    const [header, line] = fixtureText(ASIC_SAMPLE).split('\n');
    const cells = line.split('\t');
    const names = header.split('\t');
    // Derived rows of the documented shape: one per ASIC status code, a former-name row, broken ones.
    const variant = (values: Record<string, string>) => {
      const c = [...cells];
      for (const [k, v] of Object.entries(values)) c[names.indexOf(k)] = v;
      return c.map((v) => (v.includes(',') ? `"${v}"` : v)).join(',');
    };
    const csv = [
      names.join(','),
      variant({
        Status: 'DRGD',
        'Date of Registration': '28/11/2011',
        'Date of Deregistration': '01/02/2020',
        ABN: '',
      }),
      variant({ Status: 'EXAD' }),
      variant({ Status: 'SOFF', 'Company Name': 'Oneflare, Pty Ltd' }),
      variant({ Status: 'XXXX' }),
      variant({ 'Current Name Indicator': 'N', 'Company Name': 'FORMER NAME PTY LTD' }),
      variant({ ACN: '' }),
      variant({ 'Date of Registration': '2011-11-28' }),
      'Oneflare Pty Ltd,154482283',
    ].join('\n');
    const { rows, rejections, skipped } = await collect(readAuAsicCompanies, chunked(csv, 41), readerContext('AU'));
    expect(rows.map((r) => [r.registrationNumber, r.status, r.statusCategory, r.incorporationDate])).toEqual([
      ['154482283', 'Deregistered', 'dissolved', '2011-11-28'],
      ['26154482283', 'External administration', 'in_liquidation', null],
      ['26154482283', 'Strike-off action in progress', 'struck_off', null],
      ['26154482283', 'XXXX', 'unknown', null],
    ]);
    expect(rows[0]).toMatchObject({
      otherNumbers: [],
      sourceUrl: 'https://abr.business.gov.au/Search/ResultsActive?SearchText=154482283',
      extra: { deregistrationDate: '2020-02-01' },
    });
    expect(rows[2].name).toBe('Oneflare, Pty Ltd');
    expect(skipped).toEqual(['former-name row']);
    expect(rejections).toEqual([
      { at: 7, reason: 'missing registration number', detail: 'ACN' },
      { at: 8, reason: 'bad date', detail: 'Date of Registration "2011-11-28"' },
      { at: 9, reason: 'wrong number of columns', detail: '2 instead of 15' },
    ]);
  });
});
