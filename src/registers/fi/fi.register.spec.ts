import { loadConfig } from '../../app/config';
import { ManualClock } from '../../platform/clock';
import { HttpClientFactory } from '../client/http-client.factory';
import { COUNTRY_CODES, REGISTERS } from '../registers';
import { FiConnector } from './fi.connector';
import { FI_REGISTER } from './fi.register';

/** FI's own facts; what every register of the table must satisfy is in registers.spec.ts. */
describe('the FI register', () => {
  const { definition, bulkFormats, changeDetection, simulation } = FI_REGISTER;

  it('is in the register table, after NO', () => {
    expect(REGISTERS.FI).toBe(FI_REGISTER);
    expect(COUNTRY_CODES.indexOf('FI')).toBe(COUNTRY_CODES.indexOf('NO') + 1);
    expect(bulkFormats.map((f) => [f.id, f.country])).toEqual([['all-companies-json', 'FI']]);
  });

  it('reads PRH keyless, under CC BY 4.0, and links records to the YTJ information service', () => {
    expect(definition).toMatchObject({
      countryName: 'Finland',
      short: 'PRH',
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

  it('takes its base URLs from REGISTER_FI_API_URL and REGISTER_FI_WEB_URL, and builds its connector from them', () => {
    const { registers } = loadConfig({});
    expect(registers.of('FI')).toEqual({
      urls: { API: 'https://avoindata.prh.fi/opendata-ytj-api/v3', WEB: 'https://tietopalvelu.ytj.fi' },
      credentials: {},
      paused: false,
    });
    const env = { REGISTER_FI_API_URL: 'http://127.0.0.1:9/v3/', REGISTER_FI_WEB_URL: 'http://127.0.0.1:9/ytj' };
    const { app: config, registers: configured } = loadConfig(env);
    expect(configured.of('FI').urls).toEqual({ API: 'http://127.0.0.1:9/v3', WEB: 'http://127.0.0.1:9/ytj' });
    const http = new HttpClientFactory(config, configured);
    try {
      const connector = FI_REGISTER.createConnector({
        settings: configured.of('FI'),
        config,
        http,
        clock: new ManualClock(new Date(0)),
      });
      expect(connector).toBeInstanceOf(FiConnector);
    } finally {
      http.onApplicationShutdown();
    }
    expect(() => loadConfig({ REGISTER_FI_API_URL: 'not a url' })).toThrow(
      /REGISTER_FI_API_URL: must be an absolute URL/,
    );
  });

  it('detects changes by re-reading watched companies through the API endpoint', () => {
    const { registers } = loadConfig({});
    const settings = registers.of('FI');
    expect(changeDetection.mode(settings)).toBe('schedule');
    const endpoint = definition.endpoints[changeDetection.readEndpoint(settings)];
    expect(endpoint.linksOnly).toBeFalsy();
    expect(changeDetection.createFeed).toBeUndefined();
    expect(changeDetection.createStream).toBeUndefined();
  });

  it('gives the simulator the words the parser gives: Rekisterissä, Selvitystila, and the two company forms', () => {
    expect(simulation).toEqual({
      status: { active: 'Rekisterissä', inactive: 'Selvitystila' },
      legalFormPairs: [['Osakeyhtiö', 'Julkinen osakeyhtiö']],
    });
  });
});
