import { fixture } from '../../../test/support/fake-register';
import { formatChAddress, parseCompanyProfile, parseOfficerList } from './ch-api-parsers';
import {
  CESSATION_LABELS,
  COMPANY_STATUS_CATEGORIES,
  COMPANY_STATUS_DETAIL_LABELS,
  COMPANY_STATUS_LABELS,
  COMPANY_TYPE_LABELS,
  OFFICER_ROLE_LABELS,
} from './ch-constants';
import { parseChDate, parseWebCompany, parseWebOfficers, parseWebSearch } from './ch-web-parsers';

const G = 'registers/gb';

/** One top-level section of CH's constants.yml as key → label (the file's simple `'key' : "label"` lines). */
function yamlSection(name: string): Record<string, string> {
  const out: Record<string, string> = {};
  let inside = false;
  for (const line of fixture(`${G}/ch-api-enumerations-constants.yml`).split('\n')) {
    if (/^[a-z_]+:/.test(line)) {
      inside = line.startsWith(`${name}:`);
      continue;
    }
    const m = inside ? /^\s+'([^']+)'\s*:\s*"(.*)"\s*$/.exec(line) : null;
    if (m) out[m[1]] = m[2];
  }
  return out;
}

describe("Companies House labels equal the register's constants.yml", () => {
  it.each([
    ['company_status', COMPANY_STATUS_LABELS],
    ['company_status_detail', COMPANY_STATUS_DETAIL_LABELS],
    ['company_type', COMPANY_TYPE_LABELS],
    ['officer_role', OFFICER_ROLE_LABELS],
    ['cessation_label_for_status', CESSATION_LABELS],
  ])('%s', (section, table) => {
    expect(table).toEqual(yamlSection(section));
  });

  it('maps every company_status to a category', () => {
    expect(Object.keys(COMPANY_STATUS_CATEGORIES).sort()).toEqual(Object.keys(yamlSection('company_status')).sort());
  });
});

describe('Companies House API parsers', () => {
  it('reads a company profile', () => {
    expect(parseCompanyProfile(JSON.parse(fixture(`${G}/ch-company-profile-08957400.json`)))).toEqual({
      name: 'CANDOUR GROUP LIMITED',
      registrationNumber: '08957400',
      country: 'GB',
      status: 'Active',
      statusCategory: 'active',
      legalForm: 'Private limited company',
      address: '71 New Dover Road, Canterbury, England, CT1 3DZ',
      city: 'Canterbury',
      incorporationDate: '2014-03-25',
      extra: { companyStatus: 'active', companyType: 'ltd', jurisdiction: 'england-wales' },
    });
  });

  it('words a status detail as the website does', () => {
    const body = {
      ...JSON.parse(fixture(`${G}/ch-company-profile-08957400.json`)),
      company_status_detail: 'active-proposal-to-strike-off',
    };
    expect(parseCompanyProfile(body)).toMatchObject({
      status: 'Active — Active proposal to strike off',
      statusCategory: 'active',
    });
  });

  it('reads officers with role labels, optional dates and corporate kinds', () => {
    const { officers, totalResults } = parseOfficerList(JSON.parse(fixture(`${G}/ch-company-officers-04475590.json`)));
    expect(totalResults).toBe(7);
    expect(officers).toHaveLength(7);
    // The current secretary has no appointed_on at all in the recording.
    expect(officers[0]).toEqual({
      name: 'STEVENSON, Elizabeth Mary',
      role: 'Secretary',
      kind: 'person',
      appointedOn: null,
      resignedOn: null,
    });
    expect(officers[3]).toEqual({
      name: 'LONDON LAW SECRETARIAL LIMITED',
      role: 'Nominee Secretary',
      kind: 'company',
      appointedOn: '2002-07-02',
      resignedOn: '2002-07-02',
    });
  });

  it.each([
    [
      {
        premises: '74 ',
        address_line_1: 'Lairgate',
        locality: 'Beverley',
        region: 'East Yorkshire',
        country: 'United Kingdom',
        postal_code: 'HU17 8EU',
      },
      '74 Lairgate, Beverley, East Yorkshire, United Kingdom, HU17 8EU',
    ],
    [
      {
        premises: 'Flat 5, ',
        address_line_1: 'Treloar House',
        address_line_2: '397 Cambridge Heath Road',
        locality: 'London',
      },
      'Flat 5, Treloar House, 397 Cambridge Heath Road, London',
    ],
    [
      { premises: '20-22 ', address_line_1: 'Wenlock Road', locality: 'London', region: null, postal_code: 'N1 7GU' },
      '20-22 Wenlock Road, London, N1 7GU',
    ],
    [
      { care_of: 'Yuki San', address_line_1: '51 Notte Street', locality: 'Plymouth' },
      'C/O Yuki San, 51 Notte Street, Plymouth',
    ],
    [{}, null],
    // Runs of white space (tabs, a no-break space) made one space, a trailing comma dropped, a part of only a comma left out.
    [
      { address_line_1: '1  High\tStreet,', locality: 'Long\u00a0Sutton ', region: ' , ', postal_code: 'PE12  9AA' },
      '1 High Street, Long Sutton, PE12 9AA',
    ],
  ])('formats %j', (address, expected) => {
    expect(formatChAddress(address)).toBe(expected);
  });
});

describe('Companies House website parsers', () => {
  it.each([
    [' 2 July 2002', '2002-07-02'],
    ['25 March 2014', '2014-03-25'],
    ['Dissolved on 22 August 2017', '2017-08-22'],
    ['sometime in August', null],
    ['31 Febtober 2026', null],
  ])('reads the date %p', (text, iso) => expect(parseChDate(text)).toBe(iso));

  it('reads the REAL search-results fragment (beta site, 2016)', () => {
    expect(parseWebSearch(fixture(`${G}/ch-web-search-results-fragment-10271532-extracted.html`))).toEqual([
      {
        name: 'YUKI SAN LIMITED',
        registrationNumber: '10271532',
        country: 'GB',
        status: null,
        statusCategory: 'unknown',
        legalForm: null,
        address: 'C/O Yuki San, 51 Notte Street, Plymouth, England, PL1 2AG',
        city: null,
        incorporationDate: '2016-07-11',
        extra: {},
      },
    ]);
  });

  it('reads a results page built from the template, ignoring "matching previous names"', () => {
    const results = parseWebSearch(fixture(`${G}/ch-web-search-q-you-constructed-from-templates.html`));
    expect(results).toHaveLength(15);
    expect(results[1]).toMatchObject({
      name: 'CLEVER TEC LTD',
      registrationNumber: '11722385',
      incorporationDate: '2018-12-11',
    });
    expect(results[4]).toMatchObject({
      name: 'YOU & CO. LTD',
      registrationNumber: '08051585',
      status: 'Dissolved',
      statusCategory: 'dissolved',
      incorporationDate: null,
      extra: { dateOfCessation: '2019-01-15' },
      address: '20-22 Wenlock Road, London, England, N1 7GU',
    });
  });

  it('answers the no-results page with no results', () => {
    expect(parseWebSearch(fixture(`${G}/ch-web-search-no-results-constructed-from-templates.html`))).toEqual([]);
  });

  it('refuses a page that is neither results nor no-results', () => {
    expect(() =>
      parseWebSearch('<html><body><h1>Sorry, there is a problem with the service</h1></body></html>'),
    ).toThrow(expect.objectContaining({ errorClass: 'invalid_response' }));
  });

  it('reads the company page and refuses another company', () => {
    const html = fixture(`${G}/ch-web-company-08957400-constructed-from-templates.html`);
    expect(parseWebCompany(html, '08957400')).toMatchObject({
      name: 'CANDOUR GROUP LIMITED',
      status: 'Active',
      statusCategory: 'active',
      legalForm: 'Private limited Company',
      address: '71 New Dover Road, Canterbury, England, CT1 3DZ',
      incorporationDate: '2014-03-25',
    });
    expect(() => parseWebCompany(html, '00445790')).toThrow(
      expect.objectContaining({ errorClass: 'invalid_response' }),
    );
  });

  it('reads the officers page; a company without identification is told by its name and missing birth date', () => {
    const { officers, nextPage } = parseWebOfficers(
      fixture(`${G}/ch-web-officers-04475590-constructed-from-templates.html`),
    );
    expect(nextPage).toBeNull();
    expect(officers.map((o) => [o.name, o.role, o.kind, o.appointedOn, o.resignedOn])).toEqual([
      ['STEVENSON, Elizabeth Mary', 'Secretary', 'person', null, null],
      ['STEVENSON, Benjamin Thomas', 'Director', 'person', '2017-09-02', null],
      ['STEVENSON, Elizabeth Mary', 'Director', 'person', '2002-07-02', null],
      ['LONDON LAW SECRETARIAL LIMITED', 'Nominee Secretary', 'company', '2002-07-02', '2002-07-02'],
      ['LONDON LAW SERVICES LIMITED', 'Nominee Director', 'company', '2002-07-02', '2002-07-02'],
      ['STEVENSON, Benjamin Thomas', 'Director', 'person', '2012-11-09', '2017-09-01'],
      [expect.any(String), 'Director', 'person', expect.any(String), '2012-08-28'],
    ]);
  });
});
