import { FakeRegister, FakeResponse, RecordedRequest } from './fake-register';

const F = 'registers/pl';

/** GYM CENTER 8.0 SP. Z O.O., register P (recorded current and full extracts; NIP and REGON). */
export const PL_GYM = '0001268296';
export const PL_GYM_NIP = '9452336418';
export const PL_GYM_REGON = '545772924';
/** FUNDACJA WIELKA ORKIESTRA ŚWIĄTECZNEJ POMOCY, register S (recorded current extract; NIP only). */
export const PL_WOSP = '0000030897';
export const PL_WOSP_NIP = '5213003700';
/** ORLEN S.A., register P (recorded current extract, trimmed): also the probe's entity. */
export const PL_ORLEN = '0000028860';
export const PL_ORLEN_NIP = '7740001454';
export const PL_ORLEN_REGON = '610188201';
/** GRUPA LOTOS, removed from the register (recorded full extract, trimmed to its entries). */
export const PL_REMOVED = '0000106150';
/** A KRS number neither register has: both answer the recorded 404 body. */
export const PL_UNKNOWN = '0000000001';
/** The day of the recorded hourly bulletin, and of the daily one derived from it (it names PL_GYM twice). */
export const PL_BULLETIN_DAY = '2026-09-22';

type Register = 'P' | 'S';

/** Which recorded extract answers a number in a register; every other pair is the recorded 404. */
const CURRENT: Record<string, Partial<Record<Register, FakeResponse>>> = {
  [PL_GYM]: { P: { fixture: `${F}/krs-odpisaktualny-P-0001268296-gym-center-sp-zoo.json` } },
  [PL_WOSP]: { S: { fixture: `${F}/krs-odpisaktualny-S-0000030897-wosp-fundacja.json` } },
  [PL_ORLEN]: { P: { fixture: `${F}/krs-odpisaktualny-P-0000028860-orlen-trimmed.json` } },
  // A removed entity's current extract is empty (the known client's behaviour: UNVERIFIED live).
  [PL_REMOVED]: { P: { status: 204 } },
};
const FULL: Record<string, Partial<Record<Register, FakeResponse>>> = {
  [PL_GYM]: { P: { fixture: `${F}/krs-odpispelny-P-0001268296-gym-center-sp-zoo.json` } },
  [PL_REMOVED]: { P: { fixture: `${F}/krs-odpispelny-P-0000106150-wykreslony-removed-trimmed.json` } },
};

export const PL_NOT_FOUND: FakeResponse = { status: 404, fixture: `${F}/krs-error-404-not-found.json` };

/** The register's answer for an extract of a number in a register (`?rejestr=P|S`). */
function extract(table: typeof CURRENT) {
  return (req: RecordedRequest): FakeResponse => {
    const krs = req.path.split('/').pop()!;
    const register = req.query.get('rejestr') as Register;
    return table[krs]?.[register] ?? PL_NOT_FOUND;
  };
}

/**
 * The KRS Open API of the Ministry of Justice on loopback, at the paths the PL connector and
 * feed read (the service's REGISTER_PL_API_URL is the fake's root, as `…/api/krs` is the
 * real one's), replaying the recordings of test/fixtures/registers/pl (see its MANIFEST.md):
 * - GET /OdpisAktualny/{krs}?rejestr=P|S → GYM CENTER (P), WOSP (S), ORLEN (P), 204 for the
 *   removed LOTOS (P); the recorded 404 problem body for every other number and register;
 * - GET /OdpisPelny/{krs}?rejestr=P|S → GYM CENTER (P) and LOTOS, removed (P); 404 otherwise;
 * - GET /BiuletynGodzinowy/2026-09-22?godzinaOd=10&godzinaDo=11 → the recorded hourly bulletin;
 * - GET /Biuletyn/2026-09-22 → the daily bulletin derived from it (naming GYM CENTER twice);
 * - every other bulletin → 204, an empty one.
 */
export function routeFakePlRegister(fake: FakeRegister): void {
  fake.get(/^\/OdpisAktualny\/\d+$/, extract(CURRENT));
  fake.get(/^\/OdpisPelny\/\d+$/, extract(FULL));
  fake.get(/^\/(Biuletyn|BiuletynGodzinowy)\/[\d-]+$/, { status: 204 });
  fake.get(
    (r) =>
      r.path === `/BiuletynGodzinowy/${PL_BULLETIN_DAY}` &&
      r.query.get('godzinaOd') === '10' &&
      r.query.get('godzinaDo') === '11',
    { fixture: `${F}/krs-biuletyngodzinowy-2026-09-22-godzinaod-10-godzinado-11.json` },
  );
  fake.get(`/Biuletyn/${PL_BULLETIN_DAY}`, { fixture: `${F}/krs-biuletyn-2026-09-22-derived-from-hourly-10-11.json` });
}

/** The path of a current extract and of a full one, as the connector asks for them. */
export const plCurrent = (krs: string, register: Register) => (r: RecordedRequest) =>
  r.path === `/OdpisAktualny/${krs}` && r.query.get('rejestr') === register;
export const plFull = (krs: string, register: Register) => (r: RecordedRequest) =>
  r.path === `/OdpisPelny/${krs}` && r.query.get('rejestr') === register;
