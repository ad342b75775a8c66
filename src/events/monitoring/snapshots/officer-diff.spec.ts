import type { Officer } from '../../../registers/connector';
import { classifyStreamedOfficer, diffOfficers, officerChangeSummaries } from './officer-diff';

const o = (
  name: string,
  role: string,
  appointedOn: string | null = null,
  resignedOn: string | null = null,
): Officer => ({
  name,
  role,
  kind: 'person',
  appointedOn,
  resignedOn,
});

describe('the diff of two officer lists', () => {
  const before = [o('NORRIS, Anthony Carmelo', 'Director', '2016-08-25'), o('Anne Drinkwater', 'Styremedlem')];

  it('finds nothing in the same list re-spaced, re-cased and reordered', () => {
    expect(
      diffOfficers(before, [
        o('Anne  DRINKWATER', 'styremedlem'),
        o('NORRIS, Anthony Carmelo', 'Director', '2016-08-25'),
      ]),
    ).toEqual([]);
  });

  it('tells an appointment, a resignation by date and a departure from the list apart', () => {
    const after = [
      o('NORRIS, Anthony Carmelo', 'Director', '2016-08-25', '2021-08-19'),
      o('BAILEY, Michael William', 'Director', '2021-08-19'),
    ];
    const changes = diffOfficers(before, after);
    expect(changes.map((c) => [c.action, c.officer.name])).toEqual([
      ['resigned', 'NORRIS, Anthony Carmelo'],
      ['appointed', 'BAILEY, Michael William'],
      ['resigned', 'Anne Drinkwater'],
    ]);
    expect(changes.map(officerChangeSummaries)).toEqual([
      {
        previous: 'NORRIS, Anthony Carmelo, Director, appointed 2016-08-25',
        current: 'NORRIS, Anthony Carmelo, Director, appointed 2016-08-25, resigned 2021-08-19',
      },
      { previous: null, current: 'BAILEY, Michael William, Director, appointed 2021-08-19' },
      { previous: 'Anne Drinkwater, Styremedlem', current: null },
    ]);
  });

  it('a corrected appointment date is a change of details; a resigned officer dropping off the list is nothing', () => {
    expect(
      diffOfficers(
        [o('A', 'Director', '2020-01-01'), o('B', 'Secretary', '2010-01-01', '2015-01-01')],
        [o('A', 'Director', '2020-01-02')],
      ).map((c) => c.action),
    ).toEqual(['details_changed']);
  });
});

describe('an officers stream event against what was known of it', () => {
  it('resignation, appointment, change of details', () => {
    const known = o('NORRIS, Anthony Carmelo', 'Director', '2016-08-25');
    expect(classifyStreamedOfficer(known, { ...known, resignedOn: '2021-08-19' })).toBe('resigned');
    expect(classifyStreamedOfficer(null, o('BAILEY, Michael William', 'Director', '2021-08-19'))).toBe('appointed');
    // 01448826: no appointment date at all, never seen: nothing says it is new.
    expect(classifyStreamedOfficer(null, o('MILLS, Alexander Charles', 'Director'))).toBe('details_changed');
    expect(classifyStreamedOfficer(known, known)).toBe('details_changed');
    // 11787956: appointed and resigned the same day in 2019, published in 2022.
    expect(classifyStreamedOfficer(null, o('X', 'Director', '2019-01-25', '2019-01-25'))).toBe('resigned');
  });
});
