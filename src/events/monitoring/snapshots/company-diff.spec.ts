import fc from 'fast-check';
import { comparisonKey, comparisonKeys, diffSnapshot, WatchedValues } from './company-diff';

const base: WatchedValues = {
  name: 'YOU  LIMITED',
  status: 'Active',
  address: 'Tyvholmen 1, 0101 OSLO',
  legal_form: 'Aksjeselskap',
};
const snap = (values: WatchedValues) => ({ values, keys: comparisonKeys(values) });

describe('the diff of a fresh read against the snapshot', () => {
  it('finds nothing in an identical read', () => {
    expect(diffSnapshot(snap(base), { ...base })).toEqual([]);
  });

  it('ignores case, spacing, punctuation spacing and address parts in another order', () => {
    const noisy: WatchedValues = {
      name: 'you limited',
      status: ' ACTIVE ',
      address: '0101 Oslo ,Tyvholmen 1',
      legal_form: 'AKSJESELSKAP',
    };
    expect(diffSnapshot(snap(base), noisy)).toEqual([]);
  });

  it('reports each changed field once with the register’s own previous and current wording', () => {
    const changed: WatchedValues = {
      name: 'YOU GROUP LIMITED',
      status: 'Dissolved',
      address: 'Karl Johans gate 2, 0154 OSLO',
      legal_form: 'Allmennaksjeselskap',
    };
    expect(diffSnapshot(snap(base), changed)).toEqual([
      { field: 'name', previous: 'YOU  LIMITED', current: 'YOU GROUP LIMITED' },
      { field: 'status', previous: 'Active', current: 'Dissolved' },
      { field: 'address', previous: 'Tyvholmen 1, 0101 OSLO', current: 'Karl Johans gate 2, 0154 OSLO' },
      { field: 'legal_form', previous: 'Aksjeselskap', current: 'Allmennaksjeselskap' },
    ]);
  });

  it('a changed house number is a change even when the parts are the same words', () => {
    expect(diffSnapshot(snap(base), { ...base, address: 'Tyvholmen 11, 0101 OSLO' })).toHaveLength(1);
  });

  it('a field the read does not carry, or the snapshot never had, is not a change', () => {
    expect(diffSnapshot(snap(base), { ...base, address: null, legal_form: null })).toEqual([]);
    expect(diffSnapshot(snap({ ...base, legal_form: null }), { ...base, legal_form: 'AS' })).toEqual([]);
  });

  it('property: re-spacing and re-casing any value never makes a change', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }).filter((s) => /\p{L}/u.test(s)),
        fc.boolean(),
        (word, upper) => {
          const v = `${word} Street, 12 Town`;
          const noisy = `  ${upper ? v.toUpperCase() : v.toLowerCase()}  `.replace(/ /g, '  ');
          return (
            comparisonKey('name', v) === comparisonKey('name', noisy) &&
            comparisonKey('address', v) === comparisonKey('address', noisy)
          );
        },
      ),
    );
  });
});
