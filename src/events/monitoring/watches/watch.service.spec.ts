import { ApiError } from '../../../platform/errors/api-error';
import { DetectionHarness, startDetectionHarness, T0 } from '../../../../test/support/detection-harness';
import { SnapshotStore } from '../snapshots/snapshot-store';
import { WatchService } from './watch.service';

jest.setTimeout(60_000);

describe('WatchService', () => {
  let h: DetectionHarness;
  let watches: WatchService;
  const error = async (p: Promise<unknown>) => {
    const err = await p.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    return { status: (err as ApiError).status, code: (err as ApiError).code, detail: (err as ApiError).detail };
  };

  /**
   * Another account watches the company and the worker's detection tick leases it (due at once)
   * before this account's creation claims it: the creation, under way (since `startedAt`), and
   * the worker's token.
   */
  const createWhileWorkerHolds = async (country: 'NO' | 'GB', registrationNumber: string) => {
    await h.setReadable(country, true);
    await h.watch('acc_e', country, registrationNumber);
    const { token, entityIds } = await h.checks.claimDue(country, 1000, 'read');
    expect(entityIds).toEqual([`ent_${country.toLowerCase()}_${registrationNumber}`]);
    const startedAt = Date.now();
    return { token, entityIds, startedAt, creating: watches.create('acc_f', { country, registrationNumber }) };
  };

  beforeAll(async () => {
    h = await startDetectionHarness();
    watches = h.ctx.get(WatchService);
    for (const a of ['acc_a', 'acc_b', 'acc_c', 'acc_d', 'acc_e', 'acc_f']) await h.account(a);
  });
  afterAll(() => h.close());

  it('takes the baseline at once when the register is readable, with the register’s name and the source', async () => {
    await h.setReadable('AU', true);
    const { created, watch } = await watches.create('acc_a', { country: 'au', registrationNumber: '26 154 482 283' });
    expect(created).toBe(true);
    expect(watch).toMatchObject({
      id: expect.stringMatching(/^wch_/),
      entityId: 'ent_au_26154482283',
      country: 'AU',
      registrationNumber: '26154482283',
      companyName: 'Oneflare Pty Ltd',
      register: { name: 'Australian Business Register (ABN Lookup)', officialUrl: 'https://abr.business.gov.au' },
      notifyNoChange: false,
      baseline: {
        state: 'taken',
        readAt: '2026-11-22T12:00:00.000Z',
        sourceMode: 'live',
        sourceUrl: 'https://abr.business.gov.au/ABN/View?abn=26154482283',
      },
      lastCheck: { at: '2026-11-22T12:00:00.000Z', outcome: 'baseline' },
    });
    // Its place in the hour, after the baseline.
    expect(Date.parse(watch.nextCheckAt)).toBeGreaterThan(Date.parse('2026-11-22T12:00:00.000Z'));
    expect(Date.parse(watch.nextCheckAt)).toBeLessThanOrEqual(Date.parse('2026-11-22T13:00:00.000Z'));

    // Another account watching the same company shares the snapshot (no second read) and the entity id.
    const reads = h.fakes.AU_API.requests.length;
    const other = await watches.create('acc_b', {
      country: 'AU',
      registrationNumber: '26154482283',
      notifyNoChange: true,
    });
    expect(h.fakes.AU_API.requests.length).toBe(reads);
    expect(other.watch).toMatchObject({
      entityId: 'ent_au_26154482283',
      notifyNoChange: true,
      baseline: { state: 'taken' },
    });
    // Creating it again answers the existing watch.
    const again = await watches.create('acc_b', { country: 'AU', registrationNumber: '26154482283' });
    expect(again).toMatchObject({ created: false, watch: { id: other.watch.id } });
  });

  it('creates the watch with a pending baseline when the register is not readable', async () => {
    await h.setReadable('CA', false);
    const { watch } = await watches.create('acc_a', { country: 'CA', registrationNumber: '1007' });
    expect(watch).toMatchObject({
      companyName: null,
      baseline: { state: 'pending', readAt: null, sourceMode: null },
      lastCheck: { at: null, outcome: null },
    });
    expect(h.fakes.CA_API.requests).toHaveLength(0);
    // Taken at the first successful read.
    await h.setReadable('CA', true);
    await h.runDueChecks();
    expect(await watches.get('acc_a', watch.id)).toMatchObject({
      companyName: 'Abbotsford Chamber of Commerce',
      baseline: { state: 'taken', sourceMode: 'live' },
    });
  });

  it('waits for the baseline of a worker that claimed the new company first, and reads it once', async () => {
    const { token, entityIds, creating } = await createWhileWorkerHolds('NO', '883603362');
    await new Promise((r) => setTimeout(r, 300));
    await h.checks.checkBatch('NO', entityIds, token);
    const { created, watch } = await creating;
    expect(created).toBe(true);
    expect(watch).toMatchObject({
      baseline: { state: 'taken', sourceMode: 'live' },
      lastCheck: { outcome: 'baseline' },
    });
    expect(h.fakes.NO_API.requestsTo('/enheter/883603362')).toHaveLength(1);
  });

  it('reads the company itself when the worker that claimed it first lets it go without a baseline', async () => {
    const { token, creating } = await createWhileWorkerHolds('GB', '04475590');
    await new Promise((r) => setTimeout(r, 300));
    // What the worker does when its read fails: the lease ends, the baseline still pending.
    await h.dataSource.transaction((m) =>
      h.ctx
        .get(SnapshotStore)
        .release(m, 'ent_gb_04475590', token, { nextCheckAt: new Date(Date.parse(T0) + 300_000) }),
    );
    const { watch } = await creating;
    expect(watch).toMatchObject({
      baseline: { state: 'taken', sourceMode: 'live' },
      lastCheck: { outcome: 'baseline' },
    });
    // Read once, by the creation (without an API key, GB is read from its public pages).
    expect(h.fakes.GB_WEB.requestsTo('/company/04475590')).toHaveLength(1);
  });

  it('answers a pending baseline when the worker holding the company takes longer than a read may', async () => {
    const { startedAt: started, creating } = await createWhileWorkerHolds('NO', '913757424');
    const { watch } = await creating;
    // REGISTER_TIMEOUT_MS is 2 s in the harness: the wait is bounded by it, not the 10-minute lease.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_800);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(watch).toMatchObject({ baseline: { state: 'pending' } });
    expect(h.fakes.NO_API.requestsTo(/913757424/)).toHaveLength(0);
  });

  it('refuses a number with a wrong check digit (400), a country outside the six (404) and a malformed body (400)', async () => {
    expect(await error(watches.create('acc_a', { country: 'NO', registrationNumber: '923609017' }))).toMatchObject({
      status: 400,
      detail: expect.stringMatching(/check digit/i),
    });
    expect(await error(watches.create('acc_a', { country: 'SE', registrationNumber: '5560360793' }))).toMatchObject({
      status: 404,
      code: 'country_not_covered',
    });
    expect(await error(watches.create('acc_a', { country: 'GB', registrationNumber: 'Tesco' }))).toMatchObject({
      status: 400,
    });
    expect(
      await error(watches.create('acc_a', { country: 'GB', registrationNumber: '00445790', extra: 1 })),
    ).toMatchObject({ status: 400 });
    expect(await error(watches.create('acc_a', { country: 'GB', registrationNumber: 445790 }))).toMatchObject({
      status: 400,
    });
    expect(await error(watches.create('acc_a', null))).toMatchObject({ status: 400 });
  });

  it('creates up to 10,000 watches in one request, answering per row', async () => {
    const rows = [
      { country: 'NO', registrationNumber: '923609016' },
      { country: 'NO', registrationNumber: '923609017' },
      { country: 'XX', registrationNumber: '1' },
      { country: 'AU', registrationNumber: '26154482283' },
      { country: 'NO', registrationNumber: '923 609 016' },
      'not a row',
    ];
    const result = await watches.createMany('acc_c', { watches: rows });
    expect(result).toMatchObject({ created: 2, existing: 1, failed: 3 });
    expect(result.results.map((r) => [r.index, r.status, r.error?.status ?? null])).toEqual([
      [0, 'created', null],
      [1, 'failed', 400],
      [2, 'failed', 404],
      [3, 'created', null],
      [4, 'existing', null],
      [5, 'failed', 400],
    ]);
    expect(result.results[4].id).toBe(result.results[0].id);
    // Bulk creation reads nothing: pending baselines are the worker's.
    expect(await watches.get('acc_c', result.results[0].id!)).toMatchObject({ baseline: { state: 'pending' } });
    expect(await watches.get('acc_c', result.results[3].id!)).toMatchObject({ baseline: { state: 'taken' } });

    const many = Array.from({ length: 10_000 }, (_, i) => ({ country: 'CA', registrationNumber: String(100000 + i) }));
    const started = Date.now();
    expect(await watches.createMany('acc_d', { watches: many })).toMatchObject({ created: 10_000, failed: 0 });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(await error(watches.createMany('acc_d', { watches: [...many, many[0]] }))).toMatchObject({ status: 400 });
    expect(await error(watches.createMany('acc_d', { watches: [] }))).toMatchObject({ status: 400 });
  });

  it('lists an account’s watches page by page, filtered by country; reads and deletes one', async () => {
    const first = await watches.list('acc_c', { limit: '1' });
    expect(first.data).toHaveLength(1);
    const second = await watches.list('acc_c', { limit: '1', cursor: first.nextCursor });
    expect(second.data[0].id).not.toBe(first.data[0].id);
    expect(second.nextCursor).toBeNull();
    // Newest first; both rows were written at the same instant, so the id decides.
    expect([first.data[0].id, second.data[0].id]).toEqual([first.data[0].id, second.data[0].id].sort().reverse());
    expect((await watches.list('acc_c', { country: 'au' })).data.map((w) => w.entityId)).toEqual([
      'ent_au_26154482283',
    ]);
    expect(await error(watches.list('acc_c', { country: 'ZZ' }))).toMatchObject({ status: 404 });
    expect(await error(watches.list('acc_c', { cursor: 'garbage' }))).toMatchObject({ status: 400 });
    expect(await error(watches.list('acc_c', { limit: '0' }))).toMatchObject({
      status: 400,
      code: 'invalid_parameter',
    });
    expect(await error(watches.list('acc_c', { colour: 'red' }))).toMatchObject({ status: 400 });

    const id = first.data[0].id;
    // Another account's watch is not found, and not deleted.
    expect(await error(watches.get('acc_a', id))).toMatchObject({ status: 404, code: 'resource_not_found' });
    expect(await error(watches.remove('acc_a', id))).toMatchObject({ status: 404 });
    await watches.remove('acc_c', id);
    expect(await error(watches.get('acc_c', id))).toMatchObject({ status: 404 });
    // Text no id has (Postgres refuses a NUL byte) is not found either, and not a 500.
    for (const bad of [`${id}\u0000`, 'wch_\u0000', id.slice(0, -1), '__proto__']) {
      expect(await error(watches.get('acc_c', bad))).toMatchObject({ status: 404, code: 'resource_not_found' });
      expect(await error(watches.remove('acc_c', bad))).toMatchObject({ status: 404, code: 'resource_not_found' });
    }
  });
});
