import type { CompanyRecord } from '../../registers/connector';
import { type CountryCode, REGISTERS } from '../../registers/registers';
import type { ChangeKind } from '../event-kinds';

/**
 * A plausible change for a test event. `current` is always the company's real value as read;
 * `previous` is made up — an earlier value the register could have held — and a test event
 * says so by being a test (`is_test: true`).
 */
export function plausibleChange(
  kind: ChangeKind,
  company: CompanyRecord,
): { previous: string | null; current: string | null } {
  switch (kind) {
    case 'company.status_changed': {
      const words = REGISTERS[company.country].simulation.status;
      const current = company.status ?? words.active;
      // An active company was, plausibly, under a strike-off or cessation notice; an inactive one was active.
      return { previous: company.statusCategory === 'active' ? words.inactive : words.active, current };
    }
    case 'company.name_changed':
      return { previous: formerName(company.name), current: company.name };
    case 'company.address_changed':
      return { previous: formerAddress(company.address), current: company.address };
    case 'company.legal_form_changed':
      return { previous: formerLegalForm(company.country, company.legalForm), current: company.legalForm };
  }
}

function formerLegalForm(country: CountryCode, current: string | null): string {
  const pairs = REGISTERS[country].simulation.legalFormPairs;
  for (const [a, b] of pairs) {
    if (current === a) return b;
    if (current === b) return a;
  }
  return pairs[0][0] === current ? pairs[0][1] : pairs[0][0];
}

/** Legal-form endings the former name keeps at its end. */
const SUFFIX =
  /\s+(limited|ltd\.?|plc|llp|lp|pty\.? ltd\.?|inc\.?|corp\.?|ltée|s\.?a\.?s\.?u?|s\.?a\.?r\.?l\.?|s\.?a\.?|sci|asa|as|aps|a\/s|ivs|k\/s)$/i;

function formerName(name: string): string {
  const m = SUFFIX.exec(name);
  return m ? `${name.slice(0, m.index)} Holding${m[0]}` : `${name} Holding`;
}

function formerAddress(address: string | null): string {
  if (!address) return 'Address not registered';
  const m = /\d+/.exec(address);
  if (m) return `${address.slice(0, m.index)}${Number(m[0]) + 2}${address.slice(m.index + m[0].length)}`;
  return `c/o ${address}`;
}
