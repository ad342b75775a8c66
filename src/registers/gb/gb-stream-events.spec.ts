import { fixture } from '../../../test/support/fake-register';
import {
  companyNumberOf,
  MAX_RESOURCE_ID,
  parseFilingHistory,
  parseStreamLine,
  StreamContext,
} from './gb-stream-events';

const ctx: StreamContext = {
  webUrl: 'https://find-and-update.company-information.service.gov.uk',
  source: (url) => ({
    register: 'CH',
    url,
    official: true,
    kind: 'native_official',
    retrievedAt: '2026-11-22T12:00:00.000Z',
  }),
};
const recorded = (file: string) => JSON.stringify(JSON.parse(fixture(`registers/gb/${file}`)));

describe('Companies House stream lines, on recorded events', () => {
  it('reads an appointment: the company from resource_uri, the officer in the register’s words', () => {
    const parsed = parseStreamLine(
      'officers',
      recorded('ch-streaming-officers-event-13577252-corporate-director-appointment.json'),
      ctx,
    );
    expect(parsed.timepoint).toBeGreaterThan(0);
    expect(parsed.entry).toMatchObject({
      registrationNumber: '13577252',
      officer: { resourceId: expect.any(String), officer: { role: 'Director', kind: 'company', resignedOn: null } },
    });
  });

  it('drops U+0000 from an event’s text, as from any register answer (Postgres could not keep it)', () => {
    const line = recorded('ch-streaming-officers-event-13577252-corporate-director-appointment.json');
    const event = JSON.parse(line);
    event.data.name = `${event.data.name}\u0000`;
    const parsed = parseStreamLine('officers', JSON.stringify(event), ctx);
    expect(JSON.stringify(parsed.entry)).not.toContain('\\u0000');
    expect(parsed.entry!.officer!.fingerprint).toBe(parseStreamLine('officers', line, ctx).entry!.officer!.fingerprint);
  });

  it('the same resource sent again has the same digest; a changed one does not', () => {
    const a = parseStreamLine('officers', recorded('ch-streaming-officers-event-10345936-appointment.json'), ctx);
    const again = parseStreamLine(
      'officers',
      recorded('ch-streaming-officers-event-10345936-appointment-derived-resent.json'),
      ctx,
    );
    const other = parseStreamLine('officers', recorded('ch-streaming-officers-event-10345936-resignation.json'), ctx);
    expect(again.entry!.officer!.fingerprint).toBe(a.entry!.officer!.fingerprint);
    expect(other.entry!.officer!.fingerprint).not.toBe(a.entry!.officer!.fingerprint);
  });

  it('reads filings; annotated ones and ones whose fields changed are sent again, not new', () => {
    const line = (f: string) => parseStreamLine('filings', recorded(f), ctx).entry!.filing!;
    expect(line('ch-streaming-filings-event-10676322-aa-micro-entity.json')).toMatchObject({
      type: 'AA',
      category: 'accounts',
      descriptionCode: 'accounts-with-accounts-type-micro-entity',
      description: expect.stringMatching(/^Accounts with accounts type micro entity, made up date \d{4}-\d{2}-\d{2}$/),
      resentBecause: null,
    });
    expect(line('ch-streaming-filings-event-02154654-aa-full-paper-filed.json').resentBecause).toBeNull();
    expect(line('ch-streaming-filings-event-07260025-cs01-annotation-paper-filed.json').resentBecause).toMatch(
      /annotations/,
    );
    expect(line('ch-streaming-filings-event-10620794.json').resentBecause).toMatch(/links.document_metadata/);
  });

  it('another resource kind or a deleted one is nothing to compare; a broken line is skipped without a position', () => {
    expect(parseStreamLine('officers', recorded('ch-streaming-insolvency-event-11519482-cvl.json'), ctx)).toMatchObject(
      {
        entry: null,
        timepoint: expect.any(Number),
      },
    );
    expect(
      parseStreamLine('officers', '{"resource_kind":"company-officers","resource_uri":"/company/1034', ctx),
    ).toEqual({
      skipped: 'a line that is not JSON (cut short?)',
    });
    expect(parseStreamLine('filings', '{"resource_kind":"filing-history","data":{}}', ctx).skipped).toBeDefined();
  });

  it('a company event whose profile cannot be read is nothing to compare at its timepoint, so the stream moves past it', () => {
    const event = JSON.parse(recorded('ch-streaming-companies-event-05954546.json'));
    const timepoint: number = event.event.timepoint;
    const unnamed = { ...event, data: { ...event.data, company_name: null } };
    const { company_number: _, ...unnumbered } = event.data;
    for (const broken of [unnamed, { ...event, data: unnumbered }])
      expect(parseStreamLine('companies', JSON.stringify(broken), ctx)).toEqual({ timepoint, entry: null });
    // The recorded event itself is read.
    expect(parseStreamLine('companies', JSON.stringify(event), ctx)).toMatchObject({
      timepoint,
      entry: { registrationNumber: '05954546', record: { name: 'GLENCOYNE ENGINEERING LTD' } },
    });
  });

  it('an officer or filing whose id is longer than any the register gives is nothing to compare at its timepoint', () => {
    const long = 'x'.repeat(MAX_RESOURCE_ID + 1);
    const officer = JSON.parse(recorded('ch-streaming-officers-event-13577252-corporate-director-appointment.json'));
    const filing = JSON.parse(recorded('ch-streaming-filings-event-10676322-aa-micro-entity.json'));
    for (const [stream, event] of [
      ['officers', { ...officer, resource_id: long }],
      ['filings', { ...filing, resource_id: long }],
      ['filings', { ...filing, data: { ...filing.data, transaction_id: long } }],
    ] as const)
      expect(parseStreamLine(stream, JSON.stringify(event), ctx)).toEqual({
        timepoint: event.event.timepoint,
        entry: null,
      });
    // At the longest id taken, the filing is read.
    const longest = { ...filing, data: { ...filing.data, transaction_id: long.slice(1) } };
    expect(parseStreamLine('filings', JSON.stringify(longest), ctx).entry?.filing).toBeDefined();
    // A filing history page leaves such an item out, as one without an id.
    const page = { items: [{ ...filing.data, transaction_id: long }, filing.data] };
    expect(parseFilingHistory(page, '10676322', ctx).map((f) => f.resourceId)).toEqual([filing.data.transaction_id]);
  });

  it('takes the company number from a resource_uri with or without its leading slash', () => {
    expect(companyNumberOf('/company/10345936/appointments/x')).toBe('10345936');
    expect(companyNumberOf('company/14438833/exemptions')).toBe('14438833');
    expect(companyNumberOf('/officers/x')).toBeNull();
  });
});

describe('a Companies House filing history page', () => {
  it('gives its filings as the stream does, newest first, leaving out an item without a transaction id', () => {
    const body = JSON.parse(fixture('registers/gb/ch-filing-history-12317301-derived-from-stream-events.json'));
    const filings = parseFilingHistory(body, '12317301', ctx);
    expect(filings.map((f) => [f.resourceId, f.type, f.date])).toEqual([
      ['MzI4NDAwMDAwMGFkaXF6a2N4', 'AA', '2020-11-25'],
      ['MzI4MzUzMjgyMGFkaXF6a2N4', 'CS01', '2020-11-16'],
      ['MzI3MDAwMDAwMGFkaXF6a2N4', 'AA', '2020-08-10'],
    ]);
    expect(filings.every((f) => f.resentBecause === null)).toBe(true);
    // The CS01 reads as its stream event does: the same filing, described alike.
    const streamed = parseStreamLine(
      'filings',
      recorded('ch-streaming-filings-event-12317301-cs01-timepoint-49094846.json'),
      ctx,
    ).entry!.filing!;
    expect(filings[1]).toEqual(streamed);
  });

  it('an empty history is no filings; a body that is no history is the register’s fault', () => {
    expect(parseFilingHistory({ items_per_page: 100, total_count: 0 }, '12317301', ctx)).toEqual([]);
    expect(() => parseFilingHistory('<html></html>', '12317301', ctx)).toThrow(/filing history without items/);
  });
});
