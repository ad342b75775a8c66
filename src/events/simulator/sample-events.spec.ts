import { ManualClock } from '../../platform/clock';
import type { PublicAddress } from '../../platform/http/public-address';
import type { SearchService } from '../../search/search.service';
import { BUILT_EVENT_KINDS, EventKind } from '../event-kinds';
import {
  changeEventData,
  filingPublishedEventData,
  noChangeEventData,
  officersChangedEventData,
  registerAvailableData,
  registerUnavailableData,
} from '../monitoring/events/detection-events';
import type { WatchService } from '../monitoring/watches/watch.service';
import { SampleEvents } from './sample-events';

/** Every path of keys in a value ("register.name", "change.field"…), with the type of the value there. */
function shape(value: unknown, path = ''): string[] {
  if (value === null) return [`${path}:null-or-value`];
  if (typeof value !== 'object' || Array.isArray(value))
    return [`${path}:${Array.isArray(value) ? 'array' : typeof value}`];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => shape(v, path ? `${path}.${k}` : k));
}

const company = {
  entityId: 'ent_no_923609016',
  country: 'NO' as const,
  registrationNumber: '923609016',
  companyName: 'EQUINOR ASA',
};
const provenance = {
  source_mode: 'live' as const,
  source_url: 'https://example.org',
  retrieved_at: '2026-11-22T12:00:00.000Z',
};

/** What detection sends for each kind: the shape a simulated event must have too. */
const REAL: Record<EventKind, () => Record<string, unknown>> = {
  'company.status_changed': () =>
    changeEventData(company, { field: 'status', previous: 'A', current: 'B' }, '2026-11-22T12:00:00.000Z', provenance),
  'company.name_changed': () =>
    changeEventData(company, { field: 'name', previous: 'A', current: 'B' }, '2026-11-22T12:00:00.000Z', provenance),
  'company.address_changed': () =>
    changeEventData(company, { field: 'address', previous: 'A', current: 'B' }, '2026-11-22T12:00:00.000Z', provenance),
  'company.legal_form_changed': () =>
    changeEventData(
      company,
      { field: 'legal_form', previous: 'A', current: 'B' },
      '2026-11-22T12:00:00.000Z',
      provenance,
    ),
  'company.no_change': () => noChangeEventData(company, '2026-11-22T12:00:00.000Z', provenance),
  'register.unavailable': () =>
    registerUnavailableData(
      'NO',
      'degraded',
      'timeout',
      '2026-11-22T12:00:00.000Z',
      'https://x/api/public/v1/status',
      3,
    ),
  'register.available': () =>
    registerAvailableData('NO', 'live', new Date(0), new Date(60_000), 'https://x/api/public/v1/status', 3),
  'company.officers_changed': () =>
    officersChangedEventData(
      company,
      {
        action: 'appointed',
        previous: null,
        officer: { name: 'A', role: 'Director', kind: 'person', appointedOn: '2026-01-01', resignedOn: null },
      },
      '2026-11-22T12:00:00.000Z',
      provenance,
    ),
  'company.filing_published': () =>
    filingPublishedEventData(
      company,
      {
        resourceId: 'x',
        category: 'accounts',
        type: 'AA',
        date: '2026-11-01',
        description: 'Accounts',
        descriptionCode: 'accounts',
        url: 'https://example.org/f',
        historyUrl: 'https://example.org/h',
        fingerprint: 'f',
        resentBecause: null,
      },
      '2026-11-22T12:00:00.000Z',
      provenance,
    ),
};

describe('simulated events have the shape of real ones, kind by kind', () => {
  const samples = new SampleEvents(
    {} as SearchService,
    { watchedIn: async () => 3 } as unknown as WatchService,
    { url: (p: string) => `https://x${p}` } as unknown as PublicAddress,
    new ManualClock(new Date('2026-11-22T12:00:00.000Z')),
  );

  it('refuses a kind the named register never sends, in a sentence', async () => {
    await expect(samples.data('acct_x', 'company.filing_published', 'NO')).rejects.toMatchObject({
      code: 'invalid_body',
      detail: expect.stringContaining('NO publishes no filings'),
    });
  });

  it.each(BUILT_EVENT_KINDS)('%s', async (kind) => {
    const real = REAL[kind];
    expect(real).toBeDefined(); // a new kind needs its real shape here
    // A company of the bundled sample, of a register that sends this kind (GB sends every kind).
    const simulated = await samples.data('acct_x', kind, 'GB');
    expect(shape(simulated).sort()).toEqual(shape(real()).sort());
  });
});
