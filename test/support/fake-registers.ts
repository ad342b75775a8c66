import { REGISTER_TABLE, CountryCode } from '../../src/registers/registers';
import { FakeRegister, FakeResponse, fixture, RecordedRequest } from './fake-register';
import { routeFakeNoRegister } from './fake-no-register';
import { routeFakeFiRegister } from './fake-fi-register';
import { routeFakePlRegister } from './fake-pl-register';
import { routeFakeCzRegister } from './fake-cz-register';

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' };
const HTML_HEADERS = { 'Content-Type': 'text/html; charset=utf-8' };

/** One fake per register endpoint (REGISTER_<CC>_<PURPOSE>_URL), keyed `${CC}_${PURPOSE}`. */
export type FakeRegisters = Record<string, FakeRegister> & {
  env: Record<string, string>;
  stop(): Promise<void>;
  all(): FakeRegister[];
};

/**
 * Every register of the table on loopback, answering at the connectors' paths with the
 * recorded responses in test/fixtures/registers (see each folder's MANIFEST.md). `env`
 * points the application at them; tests override single routes to make a register fail.
 */
export async function startFakeRegisters(): Promise<FakeRegisters> {
  const fakes: Record<string, FakeRegister> = {};
  const env: Record<string, string> = {};
  for (const def of REGISTER_TABLE) {
    for (const [purpose, endpoint] of Object.entries(def.endpoints)) {
      if (endpoint.linksOnly) continue;
      const fake = await new FakeRegister().start();
      fakes[`${def.country}_${purpose}`] = fake;
      env[`REGISTER_${def.country}_${purpose}_URL`] = fake.url;
    }
  }
  const list = Object.values(fakes);
  const result = Object.assign(fakes, {
    env,
    all: () => list,
    stop: async () => {
      await Promise.all(list.map((f) => f.stop()));
    },
  }) as FakeRegisters;
  routeRecorded(result);
  return result;
}

/** Forgets overrides and recorded requests, and installs the recorded routes again. */
export function resetFakeRegisters(fakes: FakeRegisters): void {
  for (const fake of fakes.all()) fake.reset();
  routeRecorded(fakes);
}

/** Makes every endpoint of a register answer HTTP 503. */
export function failRegister(fakes: FakeRegisters, country: CountryCode): void {
  for (const [key, fake] of Object.entries(fakes)) {
    if (key.startsWith(`${country}_`) && fake instanceof FakeRegister)
      fake.on('*', () => true, { status: 503, body: 'Service Unavailable' });
  }
}

function routeRecorded(f: FakeRegisters): void {
  // Norway: the recorded search, ABG SUNDAL COLLIER ASA, 404/503 cases (fake-no-register.ts).
  routeFakeNoRegister(f.NO_API);
  // The probe reads EQUINOR ASA (923609016) and checks only the shape of the unit: no
  // recorded unit of Equinor exists, so ABG's recorded unit answers at that path.
  const asa = JSON.parse(fixture('registers/no/brreg-enheter-search-organisasjonsform-asa-size5.json')) as {
    _embedded: { enheter: object[] };
  };
  f.NO_API.get('/enheter/923609016', { body: JSON.stringify(asa._embedded.enheter[0]), headers: JSON_HEADERS });

  // Finland: the recorded Nokia Oyj answer (also the probe's), derived search, empty and 503 answers (fake-fi-register.ts).
  routeFakeFiRegister(f.FI_API);

  // Great Britain, Public Data API (with REGISTER_GB_API_KEY).
  const G = 'registers/gb';
  f.GB_API.get('/search/companies', (req) =>
    /you/i.test(req.query.get('q') ?? '')
      ? { fixture: `${G}/ch-search-companies-q-you.json` }
      : { fixture: `${G}/ch-search-companies-q-active-with-dissolved.json` },
  );
  const notFound: FakeResponse = {
    status: 404,
    body: '{"errors":[{"error":"company-profile-not-found","type":"ch:service"}]}',
  };
  f.GB_API.get(/^\/company\/\w+$/, notFound);
  f.GB_API.get(/^\/company\/\w+\/officers$/, notFound);
  f.GB_API.get('/company/08957400', { fixture: `${G}/ch-company-profile-08957400.json` });
  f.GB_API.get('/company/04475590', { fixture: `${G}/ch-company-profile-04475590-derived-from-search-item.json` });
  f.GB_API.get('/company/04475590/officers', { fixture: `${G}/ch-company-officers-04475590.json` });
  f.GB_API.get('/company/10418261', { fixture: `${G}/ch-company-profile-10418261-derived-from-search-item.json` });
  // The probe reads 00445790 and checks the shape only.
  f.GB_API.get('/company/00445790', { fixture: `${G}/ch-company-profile-08957400.json` });
  // Great Britain, the register's own website (no key).
  const page = (name: string): FakeResponse => ({ fixture: `${G}/${name}`, headers: HTML_HEADERS });
  f.GB_WEB.get('/search/companies', (req) =>
    /you/i.test(req.query.get('q') ?? '')
      ? page('ch-web-search-q-you-constructed-from-templates.html')
      : page('ch-web-search-no-results-constructed-from-templates.html'),
  );
  f.GB_WEB.get('/company/04475590', page('ch-web-company-04475590-constructed-from-templates.html'));
  f.GB_WEB.get('/company/04475590/officers', page('ch-web-officers-04475590-constructed-from-templates.html'));
  f.GB_WEB.get('/company/10418261', page('ch-web-company-10418261-dissolved-constructed-from-templates.html'));
  f.GB_WEB.get('/company/00445790', page('ch-web-company-08957400-constructed-from-templates.html'));

  // France, the recherche-entreprises mirror (fixtures are wrapped as {searchTerms, result}).
  const mirror = (file: string): FakeResponse => ({
    body: JSON.stringify(JSON.parse(fixture(`registers/fr/${file}`)).result),
    headers: JSON_HEADERS,
  });
  f.FR_MIRROR.get('/search', (req: RecordedRequest) => {
    const q = (req.query.get('q') ?? '').toLowerCase();
    if (q.includes('ganymede')) return mirror('recherche-entreprises-search-q-ganymede.json');
    if (q === '552032534') return mirror('recherche-entreprises-search-q-siren-552032534.json');
    if (q === '880878145') return mirror('recherche-entreprises-search-q-siren-880878145-cessee.json');
    if (q === '88087814500015') return mirror('recherche-entreprises-search-q-siret-88087814500015.json');
    return mirror('recherche-entreprises-search-q-siret-no-result.json');
  });

  // Denmark, the CVR distribution (with credentials).
  const byCvr: Record<number, string> = {
    25052943: 'cvr-es-virksomhed-by-cvr-25052943-magenta-aps.json',
    41774037: 'cvr-es-virksomhed-by-cvr-41774037-tietgen-invest.json',
    11617034: 'cvr-es-virksomhed-search-cvr-11617034-fls-fond-aktiv.json',
    32075541: 'cvr-es-virksomhed-by-cvr-32075541-copenhagensource-derived-from-deltager.json',
  };
  f.DK_API.post('/cvr-permanent/virksomhed/_search', (req) => {
    const body = JSON.parse(req.body) as {
      query: { term?: Record<string, number>; match?: Record<string, { query: string }> };
    };
    const cvr = body.query.term?.['Vrvirksomhed.cvrNummer'];
    const name = body.query.match?.['Vrvirksomhed.virksomhedMetadata.nyesteNavn.navn']?.query ?? '';
    const file =
      cvr !== undefined
        ? byCvr[cvr]
        : /assure/i.test(name)
          ? 'cvr-es-virksomhed-search-4-hits-assure-cvr-v-20220630.json'
          : undefined;
    return { fixture: `registers/dk/${file ?? 'cvr-es-virksomhed-search-no-hits-derived.json'}` };
  });

  // Australia, ABN Lookup (with a GUID).
  const A = 'registers/au';
  f.AU_API.get('/json/AbnDetails.aspx', (req) => ({
    fixture:
      req.query.get('abn') === '26154482283'
        ? `${A}/abr-json-abndetails-26154482283-oneflare-active.jsonp`
        : `${A}/abr-json-abndetails-no-record-constructed-from-docs.jsonp`,
  }));
  f.AU_API.get('/json/AcnDetails.aspx', (req) => ({
    fixture:
      req.query.get('acn') === '154482283'
        ? `${A}/abr-json-acndetails-154482283-oneflare-constructed-from-docs.jsonp`
        : `${A}/abr-json-abndetails-no-record-constructed-from-docs.jsonp`,
  }));
  f.AU_API.get('/json/MatchingNames.aspx', (req) => ({
    fixture: /oneflare/i.test(req.query.get('name') ?? '')
      ? `${A}/abr-json-matchingnames-oneflare-constructed-from-docs.jsonp`
      : `${A}/abr-json-matchingnames-no-record-constructed-from-docs.jsonp`,
  }));

  // Canada, the keyless corporation JSON.
  const C = 'registers/ca';
  f.CA_API.get(/^\/api\/corporations\/\d+\.json$/, {
    status: 404,
    fixture: `${C}/corpcan-api-corporation-unknown-99999999-constructed-from-docs.json`,
  });
  f.CA_API.get('/api/corporations/1007.json', {
    fixture: `${C}/corpcan-api-corporation-1007-constructed-from-docs.json`,
  });
  f.CA_API.get('/api/corporations/16292721.json', {
    fixture: `${C}/corpcan-api-corporation-16292721-constructed-from-docs.json`,
  });

  // Poland, the KRS Open API: recorded extracts of P and S, a removed entity, the bulletins (fake-pl-register.ts).
  routeFakePlRegister(f.PL_API);
  // Czechia, ARES: recorded subjects, VR records, the notification feed (fake-cz-register.ts).
  routeFakeCzRegister(f.CZ_API);
}
