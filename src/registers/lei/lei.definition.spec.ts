import { LEI_DEFINITION, leiEndpointEnvVar, leiRecordPageUrl } from './lei.definition';

describe('LEI_DEFINITION', () => {
  it('names the index and its CC0 terms', () => {
    expect(LEI_DEFINITION).toMatchObject({
      name: 'GLEIF Global LEI Index',
      short: 'GLEIF',
      officialUrl: 'https://www.gleif.org',
      reuseTermsUrl: 'https://www.gleif.org/en/meta/lei-data-terms-of-use',
      licence: 'CC0 1.0',
    });
  });

  it('reads the API at about 60 requests a minute, and only links to the web pages', () => {
    expect(LEI_DEFINITION.endpoints.API).toMatchObject({
      defaultUrl: 'https://api.gleif.org/api/v1',
      politeness: { quota: { count: 60, windowMs: 60_000 } },
    });
    expect(LEI_DEFINITION.endpoints.API.linksOnly).toBeUndefined();
    expect(LEI_DEFINITION.endpoints.WEB).toMatchObject({ defaultUrl: 'https://search.gleif.org', linksOnly: true });
  });

  it('is configured by REGISTER_LEI_<PURPOSE>_URL', () => {
    expect(leiEndpointEnvVar('API')).toBe('REGISTER_LEI_API_URL');
    expect(leiEndpointEnvVar('WEB')).toBe('REGISTER_LEI_WEB_URL');
  });

  it('links a record page at GLEIF’s LEI Search', () => {
    expect(leiRecordPageUrl('21380068P1DRHMJ8KU70')).toBe('https://search.gleif.org/#/record/21380068P1DRHMJ8KU70');
    expect(leiRecordPageUrl('21380068P1DRHMJ8KU70', 'http://127.0.0.1:8080//')).toBe(
      'http://127.0.0.1:8080/#/record/21380068P1DRHMJ8KU70',
    );
  });
});
