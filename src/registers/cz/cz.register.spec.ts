import { loadConfig } from '../../app/config';
import { Clock } from '../../platform/clock';
import { HttpClientFactory } from '../client/http-client.factory';
import { REGISTERS } from '../registers';
import { PRAVNI_FORMA } from './ares-code-lists';
import { aresStatus } from './ares-parsers';
import { CzConnector } from './cz.connector';
import { CZ_DEFINITION } from './cz.definition';
import { CZ_REGISTER } from './cz.register';

describe('the CZ register in the register table', () => {
  it('is the table’s CZ, and builds its own connector', () => {
    expect(REGISTERS.CZ).toBe(CZ_REGISTER);
    expect(CZ_REGISTER.definition.country).toBe('CZ');
    const { app: config, registers } = loadConfig({});
    const http = new HttpClientFactory(config, registers);
    try {
      const connector = CZ_REGISTER.createConnector({ settings: registers.of('CZ'), config, http, clock: new Clock() });
      expect(connector).toBeInstanceOf(CzConnector);
      expect(connector.country).toBe('CZ');
    } finally {
      http.onApplicationShutdown();
    }
  });

  it('has no bulk format, and says why', () => {
    expect(CZ_REGISTER.bulkFormats).toEqual([]);
    expect(CZ_REGISTER.noBulkFile).toMatch(/^ARES publishes no bulk file: /);
    expect(CZ_DEFINITION.doesNotPublish).toContain('a bulk file');
  });

  it('is read keyless, with officers and monitoring, and no filings', () => {
    expect(CZ_DEFINITION.provides).toEqual({ officers: true, filings: false, monitoring: true });
    expect(CZ_DEFINITION.credentials).toEqual({});
    expect(CZ_DEFINITION.requiredCredentials).toEqual([]);
  });

  it('reads its base URL from REGISTER_CZ_API_URL', () => {
    expect(loadConfig({}).registers.of('CZ').urls.API).toBe('https://ares.gov.cz/ekonomicke-subjekty-v-be/rest');
    const { registers } = loadConfig({ REGISTER_CZ_API_URL: 'http://127.0.0.1:9/ares/' });
    expect(registers.of('CZ').urls.API).toBe('http://127.0.0.1:9/ares');
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

  it('gives the simulator the words the parsers give records', () => {
    const vr = (sources: Record<string, string>) =>
      aresStatus({ datumZaniku: null, primarniZdroj: 'vr', seznamRegistraci: sources }).status;
    expect(CZ_REGISTER.simulation.status).toEqual({
      active: vr({ stavZdrojeVr: 'AKTIVNI' }),
      inactive: vr({ stavZdrojeVr: 'AKTIVNI', stavZdrojeIr: 'AKTIVNI' }),
    });
    expect(CZ_REGISTER.simulation.legalFormPairs).toEqual([[PRAVNI_FORMA['112'], PRAVNI_FORMA['121']]]);
  });
});
