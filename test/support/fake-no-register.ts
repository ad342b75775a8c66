import { FakeRegister, fixture } from './fake-register';

const F = 'registers/no';

/** SESAM AS, from the recorded name search. */
export const NO_SESAM_AS = '976030788';
/** ABG SUNDAL COLLIER ASA, from the recorded ASA filter search. */
export const NO_ABG = '883603362';
/** A real organisasjonsnummer (from the recorded ASA search) that the fake answers 404 for. */
export const NO_UNKNOWN = '923974709';
/** A real organisasjonsnummer the fake answers 503 for (register failing). */
export const NO_FAILING = '961095026';

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' };

/**
 * Brønnøysund's Enhetsregisteret on loopback, replaying recorded responses at the paths the
 * NO connector reads (src/registers/connectors/no):
 * - GET /enheter?navn=… → the recorded "Sesam" search page, or the recorded empty search for
 *   a name without "sesam";
 * - GET /enheter/883603362 → that unit's entry of the recorded ASA filter search (the unit
 *   endpoint answers the same object; derived here, not stored);
 * - GET /enheter/883603362/roller → the recorded roles response of EQUINOR ASA, replayed at
 *   this unit's path only to give the lookup a real roles document (persons, a company
 *   auditor, resigned roles);
 * - 404 for 923974709, 503 for 961095026.
 */
export async function startFakeNoRegister(): Promise<FakeRegister> {
  const fake = await new FakeRegister().start();
  routeFakeNoRegister(fake);
  return fake;
}

export function routeFakeNoRegister(fake: FakeRegister): void {
  const asa = JSON.parse(fixture(`${F}/brreg-enheter-search-organisasjonsform-asa-size5.json`)) as {
    _embedded: { enheter: Array<{ organisasjonsnummer: string }> };
  };
  const abg = asa._embedded.enheter.find((e) => e.organisasjonsnummer === NO_ABG);
  if (!abg) throw new Error(`fixture has no unit ${NO_ABG}`);
  fake.get('/enheter', (req) =>
    (req.query.get('navn') ?? '').toLowerCase().includes('sesam')
      ? { fixture: `${F}/brreg-enheter-search-navn-sesam-page1.json` }
      : { fixture: `${F}/brreg-enheter-search-no-hits.json` },
  );
  fake.get(`/enheter/${NO_ABG}`, { body: JSON.stringify(abg), headers: JSON_HEADERS });
  fake.get(`/enheter/${NO_ABG}/roller`, { fixture: `${F}/brreg-enhet-roller-923609016-equinor.json` });
  fake.get(`/enheter/${NO_UNKNOWN}`, {
    status: 404,
    body: '{"status":404,"error":"Not Found"}',
    headers: JSON_HEADERS,
  });
  fake.get(`/enheter/${NO_FAILING}`, { status: 503, body: 'Service Unavailable' });
}
