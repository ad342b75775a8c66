import type { AppConfig } from '../../platform/config/app-config';
import { FI_REGISTER } from './fi.register';

/** What registers.spec.ts checks of every register of the table, until FI is in it; and FI's own data. */
describe('the FI register', () => {
  const { definition, connector, bulkFormats, nameStopWords, changeDetection } = FI_REGISTER;
  const config = {} as AppConfig;

  it('has all its parts belong to FI', () => {
    expect(definition.country).toBe('FI');
    expect(connector.name.toUpperCase()).toBe('FICONNECTOR');
    expect(bulkFormats.map((f) => [f.id, f.country])).toEqual([['all-companies-json', 'FI']]);
    for (const word of nameStopWords) expect(word).toMatch(/^[a-z0-9]{3,}$/);
  });

  it('reads PRH keyless, under CC BY 4.0, and links records to the YTJ information service', () => {
    expect(definition).toMatchObject({
      reuseTermsUrl: 'https://creativecommons.org/licenses/by/4.0/',
      provides: { officers: false, filings: false, monitoring: true },
      credentials: {},
      requiredCredentials: [],
    });
    expect(definition.endpoints.API).toMatchObject({
      defaultUrl: 'https://avoindata.prh.fi/opendata-ytj-api/v3',
      politeness: { maxConcurrent: 2, minTimeMs: 500 },
    });
    expect(definition.endpoints.WEB).toMatchObject({ defaultUrl: 'https://tietopalvelu.ytj.fi', linksOnly: true });
  });

  it('detects changes by re-reading watched companies through the API endpoint', () => {
    expect(changeDetection.mode(config)).toBe('schedule');
    const endpoint = definition.endpoints[changeDetection.readEndpoint(config)];
    expect(endpoint.linksOnly).toBeFalsy();
    expect(changeDetection.createFeed).toBeUndefined();
    expect(changeDetection.createStream).toBeUndefined();
  });
});
