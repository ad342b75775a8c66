import { DetectionHarness, startDetectionHarness } from '../../../test/support/detection-harness';
import { detectionCheckJobSchema } from '../../events/monitoring/checks/detection-check.queue';
import { entityId } from '../entity-id';
import { FI_NOKIA } from '../../../test/support/fake-fi-register';
import { FakeResponse, fixture } from '../../../test/support/fake-register';

jest.setTimeout(60_000);

const HOUR = 3_600_000;
const F = 'registers/fi';
const RENAMED = `${F}/prh-ytj-v3-companies-businessId-0112038-9-derived-renamed-moved.json`;
const LIQUIDATION = `${F}/prh-ytj-v3-companies-businessId-0112038-9-derived-liquidation-legal-form-changed.json`;
const CEASED = `${F}/prh-ytj-v3-companies-businessId-0112038-9-derived-ceased.json`;

type Change = [string, string | null, string | null];

/**
 * FI change detection as the worker runs it (claims, the FI connector on the fake PRH, the
 * diff, events in the check's transaction): PRH has no change feed, so each watched company is
 * re-read once per interval, one `/companies?businessId=` request per company.
 */
describe('FI change detection: scheduled re-reads of PRH', () => {
  let h: DetectionHarness;

  beforeAll(async () => {
    h = await startDetectionHarness();
  });
  afterAll(() => h.close());

  const changes = async (account: string): Promise<Change[]> =>
    (await h.takeEvents())
      .filter((e) => e.accountId === account)
      .map((e) => {
        const c = e.data.change as { field: string; previous: string | null; current: string | null };
        return [c.field, c.previous, c.current];
      });

  it('reads the fake PRH that REGISTER_FI_API_URL points at', () => {
    expect(h.registers.of('FI').urls.API).toBe(h.fakes.FI_API.url);
  });

  it('queues checks of FI companies: their entity id keeps the dash of the business ID', () => {
    const job = { country: 'FI', leaseToken: 'r.abcdefgh12', entityIds: [entityId('FI', FI_NOKIA)] };
    expect(job.entityIds).toEqual(['ent_fi_0112038-9']);
    expect(detectionCheckJobSchema.safeParse(job).success).toBe(true);
  });

  it('takes the baseline, then reports each changed field once, in the register’s words', async () => {
    await h.setReadable('FI', true);
    await h.watch('acc_fi', 'FI', FI_NOKIA, true);
    const reads = () => h.fakes.FI_API.requestsTo('/companies').filter((r) => r.query.get('businessId') === FI_NOKIA);

    expect((await h.runDueChecks()).map((r) => r.outcome)).toEqual(['baseline']);
    expect(await h.takeEvents()).toEqual([]);
    expect(reads()).toHaveLength(1);

    // Not due yet: nothing is read.
    expect(await h.runDueChecks()).toEqual([]);
    expect(reads()).toHaveLength(1);

    h.clock.advance(HOUR);
    expect((await h.runDueChecks()).map((r) => r.outcome)).toEqual(['no_change']);
    const quiet = await h.takeEvents();
    expect(quiet.map((e) => e.kind)).toEqual(['company.no_change']);
    expect(quiet[0].data).toMatchObject({
      entity_id: 'ent_fi_0112038-9',
      provenance: { source_mode: 'live', source_url: 'https://tietopalvelu.ytj.fi/yritys/0112038-9' },
    });
    expect(reads()).toHaveLength(2);

    h.fakes.FI_API.get('/companies', { fixture: RENAMED });
    h.clock.advance(HOUR);
    await h.runDueChecks();
    const renamed = await h.takeEvents();
    expect(renamed.map((e) => e.kind)).toEqual(['company.name_changed', 'company.address_changed']);
    expect(
      renamed.map((e) => {
        const c = e.data.change as Record<string, unknown>;
        return [c.field, c.previous, c.current];
      }),
    ).toEqual([
      ['name', 'Nokia Oyj', 'Nokia Group Oyj'],
      ['address', 'Karakaari 7, 02610 ESPOO', 'Karaportti 3, 02610 ESPOO'],
    ]);
    expect(renamed[0].data).toMatchObject({
      country: 'FI',
      registration_number: FI_NOKIA,
      company_name: 'Nokia Group Oyj',
      register: {
        name: 'Yritys- ja yhteisötietojärjestelmä YTJ (Patentti- ja rekisterihallitus)',
        official_url: 'https://www.ytj.fi',
      },
      provenance: { source_mode: 'live', retrieved_at: '2026-11-22T14:00:00.000Z' },
    });

    h.fakes.FI_API.get('/companies', { fixture: LIQUIDATION });
    h.clock.advance(HOUR);
    await h.runDueChecks();
    expect(await changes('acc_fi')).toEqual([
      ['status', 'Rekisterissä', 'Selvitystila'],
      ['legal_form', 'Julkinen osakeyhtiö', 'Osakeyhtiö'],
    ]);
  });

  it('reads nothing into a failing answer (503, HTML, truncated, 429): the change arrives with the next good read', async () => {
    // The watch of the case above; PRH still says what it said last (in liquidation, Osakeyhtiö).
    h.fakes.FI_API.get('/companies', { fixture: LIQUIDATION });
    const failures: FakeResponse[] = [
      { status: 503, fixture: `${F}/prh-ytj-v3-error-503-derived-from-schema.json` },
      { body: '<!DOCTYPE html><html><body>Huoltokatko</body></html>', headers: { 'Content-Type': 'text/html' } },
      { body: fixture(CEASED).slice(0, 500), headers: { 'Content-Type': 'application/json' } },
      { status: 429, body: 'Too Many Requests', headers: { 'Retry-After': '0' } },
    ];
    for (const failure of failures) {
      h.fakes.FI_API.get('/companies', failure);
      h.clock.advance(HOUR);
      expect((await h.runDueChecks()).map((r) => r.outcome)).toEqual(['failed']);
      expect(await h.takeEvents()).toEqual([]);
    }
    h.fakes.FI_API.get('/companies', { fixture: CEASED });
    h.clock.advance(HOUR);
    await h.runDueChecks();
    // From the liquidation (with its form) to the ceased answer, which is the recorded one ended.
    expect(await changes('acc_fi')).toEqual([
      ['name', 'Nokia Group Oyj', 'Nokia Oyj'],
      ['status', 'Selvitystila', 'Lakannut'],
      ['address', 'Karaportti 3, 02610 ESPOO', 'Karakaari 7, 02610 ESPOO'],
      ['legal_form', 'Osakeyhtiö', 'Julkinen osakeyhtiö'],
    ]);
  });
});
