import { loadConfig } from '../../app/config';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '../../platform/clock';
import { HttpClientFactory } from '../../registers/client/http-client.factory';
import { AuConnector } from '../../registers/au';
import { CaConnector } from '../../registers/ca';
import type { CompanyRecord } from '../../registers/connector';
import { DkConnector } from '../../registers/dk';
import { FiConnector } from '../../registers/fi';
import { FrConnector } from '../../registers/fr';
import { GbConnector } from '../../registers/gb';
import { NoConnector } from '../../registers/no';
import { FakeRegister, fixture } from '../../../test/support/fake-register';
import type { DatasetRow } from '../../registers/bulk/dataset-row';
import { COUNTRY_CODES } from '../../registers/registers';
import { PlConnector } from '../../registers/pl';
import { PL_DEFINITION } from '../../registers/pl/pl.definition';
import { connectorBuilder } from '../../../test/support/connectors';
import { PL_GYM, PL_ORLEN, PL_WOSP, routeFakePlRegister } from '../../../test/support/fake-pl-register';
import BUNDLED from './bundled-sample.json';
import { CzConnector } from '../../registers/cz';

/**
 * The bundled sample dataset is what the live connectors read from the REAL recorded
 * responses in test/fixtures (replayed on loopback), kept as dataset rows. This spec rebuilds
 * it and fails when the committed file differs; `UPDATE_SEED=1` rewrites the file.
 */
describe('bundled sample dataset', () => {
  let fake: FakeRegister;
  let http: HttpClientFactory;

  beforeAll(async () => {
    fake = await new FakeRegister().start();
  });
  afterAll(async () => {
    http?.onApplicationShutdown();
    await fake.stop();
  });

  async function build(): Promise<DatasetRow[]> {
    const json = (file: string) => ({ fixture: `registers/${file}` });
    const mirror = (file: string) => ({
      body: JSON.stringify(JSON.parse(fixture(`registers/fr/${file}`)).result),
      headers: { 'Content-Type': 'application/json' },
    });
    // Norway: the recorded name search and the recorded list of five ASA units.
    fake.get('/no/enheter', (req) =>
      json(
        req.query.get('navn') === 'sesam'
          ? 'no/brreg-enheter-search-navn-sesam-page1.json'
          : 'no/brreg-enheter-search-organisasjonsform-asa-size5.json',
      ),
    );
    // Great Britain: two recorded searches and a recorded profile (the Public Data API).
    fake.get('/gb/search/companies', (req) =>
      json(
        req.query.get('q') === 'you'
          ? 'gb/ch-search-companies-q-you.json'
          : 'gb/ch-search-companies-q-active-with-dissolved.json',
      ),
    );
    fake.get('/gb/company/08957400', json('gb/ch-company-profile-08957400.json'));
    fake.get('/gb/company/08957400/officers', { status: 404, body: '{}' });
    // France: the recorded mirror answers.
    fake.get('/fr/search', (req) =>
      mirror(
        {
          ganymede: 'recherche-entreprises-search-q-ganymede.json',
          '552032534': 'recherche-entreprises-search-q-siren-552032534.json',
          '880878145': 'recherche-entreprises-search-q-siren-880878145-cessee.json',
        }[req.query.get('q') ?? ''] ?? 'recherche-entreprises-search-q-siret-no-result.json',
      ),
    );
    // Denmark: the recorded documents.
    const dk: Record<string, string> = {
      '25052943': 'dk/cvr-es-virksomhed-by-cvr-25052943-magenta-aps.json',
      '41774037': 'dk/cvr-es-virksomhed-by-cvr-41774037-tietgen-invest.json',
      '11617034': 'dk/cvr-es-virksomhed-search-cvr-11617034-fls-fond-aktiv.json',
    };
    fake.post('/dk/cvr-permanent/virksomhed/_search', (req) => {
      const q = JSON.parse(req.body).query;
      const cvr = q.term?.['Vrvirksomhed.cvrNummer'];
      return json(
        cvr !== undefined ? dk[String(cvr)] : 'dk/cvr-es-virksomhed-search-4-hits-assure-cvr-v-20220630.json',
      );
    });
    // Australia: the one recorded AbnDetails answer. Canada: the corporation JSON built from the
    // register's own open data for the same corporations (see ca/MANIFEST.md).
    fake.get('/au/json/AbnDetails.aspx', json('au/abr-json-abndetails-26154482283-oneflare-active.jsonp'));
    fake.get('/ca/api/corporations/1007.json', json('ca/corpcan-api-corporation-1007-constructed-from-docs.json'));
    fake.get(
      '/ca/api/corporations/16292721.json',
      json('ca/corpcan-api-corporation-16292721-constructed-from-docs.json'),
    );

    const { app: config, registers } = loadConfig({
      REGISTER_NO_API_URL: `${fake.url}/no`,
      REGISTER_GB_API_URL: `${fake.url}/gb`,
      REGISTER_GB_API_KEY: 'k',
      REGISTER_FR_MIRROR_URL: `${fake.url}/fr`,
      REGISTER_DK_API_URL: `${fake.url}/dk`,
      REGISTER_DK_USERNAME: 'u',
      REGISTER_DK_PASSWORD: 'p',
      REGISTER_AU_API_URL: `${fake.url}/au`,
      REGISTER_AU_GUID: 'g',
      REGISTER_CA_API_URL: `${fake.url}/ca`,
    });
    http = new HttpClientFactory(config, registers);
    const clock = new ManualClock(new Date('2026-11-22T00:00:00.000Z'));
    const no = new NoConnector({ settings: registers.of('NO'), config, http, clock });
    const gb = new GbConnector({ settings: registers.of('GB'), config, http, clock });
    const fr = new FrConnector({ settings: registers.of('FR'), config, http, clock });
    const dkc = new DkConnector({ settings: registers.of('DK'), config, http, clock });
    const au = new AuConnector({ settings: registers.of('AU'), config, http, clock });
    const ca = new CaConnector({ settings: registers.of('CA'), config, http, clock });
    const records: CompanyRecord[] = [
      ...(await no.searchByName('sesam', 100)),
      ...(await no.searchByName('asa', 100)),
      ...(await gb.searchByName('you', 100)),
      ...(await gb.searchByName('active', 100)),
      (await gb.lookup('08957400'))!,
      ...(await fr.searchByName('ganymede', 100)),
      (await fr.lookup('552032534'))!,
      (await fr.lookup('880878145'))!,
      ...(await dkc.searchByName('assure', 100)),
      (await dkc.lookup('25052943'))!,
      (await dkc.lookup('41774037'))!,
      (await dkc.lookup('11617034'))!,
      (await au.lookup('26154482283'))!,
      (await ca.lookup('1007'))!,
      (await ca.lookup('16292721'))!,
    ];

    // Poland: the recorded current extracts of registers P and S (fake-pl-register.ts), with
    // their NIP and REGON as other numbers. KRS publishes no bulk file: these rows are what a
    // fresh install answers a PL name, NIP or REGON query with. KRS has no page per record, so
    // a row links to the extract at the register's own address, not the fake's.
    routeFakePlRegister(fake);
    const plConnectors = connectorBuilder('PL', PlConnector, clock, () => ({ REGISTER_PL_API_URL: fake.url }));
    const pl = plConnectors.build();
    for (const krs of [PL_GYM, PL_WOSP, PL_ORLEN]) {
      const record = (await pl.readRecord(krs))!;
      const url = record.source.url.replace(fake.url, PL_DEFINITION.endpoints.API.defaultUrl);
      records.push({ ...record, source: { ...record.source, url } });
    }
    plConnectors.shutdown();
    // Czechia: the recorded ARES subjects, read with a client of their own. ARES publishes no bulk
    // file, so these rows are all a fresh install has of CZ. The recorded sole trader (01603094)
    // is left out: a natural person's name and home, which a sample of companies does not need.
    {
      const subjects: Record<string, string> = {
        '25063677': 'ares-ekonomicke-subjekty-ico-25063677-sad-sro.json',
        '25834151': 'ares-ekonomicke-subjekty-ico-25834151-hella.json',
        '27074358': 'ares-ekonomicke-subjekty-ico-27074358-asseco.json',
      };
      const cz = loadConfig({ REGISTER_CZ_API_URL: `${fake.url}/cz` });
      const czHttp = new HttpClientFactory(cz.app, cz.registers);
      const ares = new CzConnector({ settings: cz.registers.of('CZ'), config: cz.app, http: czHttp, clock });
      fake.get(/^\/cz\/ekonomicke-subjekty\/\d{8}$/, (req) => json(`cz/${subjects[req.path.slice(-8)]}`));
      try {
        for (const ico of Object.keys(subjects)) records.push((await ares.readRecord(ico))!);
      } finally {
        czHttp.onApplicationShutdown();
      }
    }

    // ── Finland (FI) ─────────────────────────────────────────────────────────────────────────
    // The one recorded PRH answer, Nokia Oyj (0112038-9). The derived PRH answers (three-hit
    // search, ceased) hold invented companies: they stay out of the sample.
    fake.get('/fi/companies', json('fi/prh-ytj-v3-companies-businessId-0112038-9-nokia-oyj.json'));
    const fiConnectors = connectorBuilder('FI', FiConnector, clock, () => ({ REGISTER_FI_API_URL: `${fake.url}/fi` }));
    records.push((await fiConnectors.build().lookup('0112038-9'))!);
    fiConnectors.shutdown();
    // ─────────────────────────────────────────────────────────────────────────────────────────

    const byKey = new Map<string, DatasetRow>();
    for (const r of records) {
      // The officers of a lookup are not part of the dataset (bulk files carry none).
      const { officers: _o, source, extra, ...rest } = r as CompanyRecord & { officers?: unknown };
      const { otherNumbers, ...otherExtra } = (extra ?? {}) as Record<string, unknown> & { otherNumbers?: string[] };
      byKey.set(`${r.country}|${r.registrationNumber}`, {
        ...rest,
        otherNumbers: otherNumbers ?? [],
        sourceUrl: source.url,
        extra: Object.keys(otherExtra).length ? otherExtra : null,
      });
    }
    return [...byKey.values()].sort(
      (a, b) => a.country.localeCompare(b.country) || a.registrationNumber.localeCompare(b.registrationNumber),
    );
  }

  it('is exactly what the connectors read from the recorded responses', async () => {
    const rows = await build();
    if (process.env.UPDATE_SEED === '1')
      writeFileSync(join(__dirname, 'bundled-sample.json'), `${JSON.stringify(rows, null, 1)}\n`);
    expect(JSON.parse(JSON.stringify(BUNDLED))).toEqual(JSON.parse(JSON.stringify(rows)));
    expect(new Set(rows.map((r) => r.country))).toEqual(new Set(COUNTRY_CODES));
    for (const r of rows) expect(r.sourceUrl).toMatch(/^https:\/\/(?!127\.0\.0\.1)/);
  });
});
