import { CZ_DEFINITION } from './cz.definition';
import { CZ_REGISTER } from './cz.register';

describe('the CZ register, ready for the register lists', () => {
  it('its parts all belong to it, as registers.spec.ts checks of every register', () => {
    expect(CZ_REGISTER.definition.country).toBe('CZ');
    expect(CZ_REGISTER.connector.name.toUpperCase()).toBe('CZCONNECTOR');
    for (const word of CZ_REGISTER.nameStopWords) expect(word).toMatch(/^[a-z0-9]{3,}$/);
    // registers.spec.ts also asks for a bulk format: ARES has none (see cz.register.ts).
    expect(CZ_REGISTER.bulkFormats).toEqual([]);
  });

  it('is read keyless, with officers and monitoring, and no filings', () => {
    expect(CZ_DEFINITION.provides).toEqual({ officers: true, filings: false, monitoring: true });
    expect(CZ_DEFINITION.credentials).toEqual({});
    expect(CZ_DEFINITION.requiredCredentials).toEqual([]);
  });

  it('stays well under the 500 requests a minute ARES allows, whatever the concurrency', () => {
    const { politeness } = CZ_DEFINITION.endpoints.API;
    expect(politeness.quota!.count * (60_000 / politeness.quota!.windowMs)).toBeLessThanOrEqual(250);
    expect(60_000 / politeness.minTimeMs).toBeLessThanOrEqual(250);
  });

  it('links records on the ARES website, which is never read', () => {
    expect(CZ_DEFINITION.endpoints.WEB).toMatchObject({ defaultUrl: 'https://ares.gov.cz', linksOnly: true });
    for (const endpoint of Object.values(CZ_DEFINITION.endpoints)) expect(endpoint.defaultUrl).toMatch(/^https:\/\//);
  });
});
