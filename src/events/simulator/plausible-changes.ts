import type { CompanyRecord } from '../../registers/connector';
import type { CountryCode } from '../../registers/register-table';
import type { ChangeKind } from '../webhooks/events/event-kinds';

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
      const words = STATUS_WORDING[company.country];
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

/** Status wording as each register writes it: an active one, and one a company leaves to become active again. */
const STATUS_WORDING: Record<CountryCode, { active: string; inactive: string }> = {
  GB: { active: 'Active', inactive: 'Active - Proposal to Strike off' },
  AU: { active: 'Active', inactive: 'Cancelled' },
  CA: { active: 'Active', inactive: 'Dissolved' },
  FR: { active: 'Active', inactive: 'Cessée' },
  DK: { active: 'NORMAL', inactive: 'UNDER FRIVILLIG LIKVIDATION' },
  NO: { active: 'Registrert', inactive: 'Under avvikling' },
};

/** Pairs of legal forms a company moves between (private ↔ public, and the like). */
const LEGAL_FORM_PAIRS: Record<CountryCode, Array<[string, string]>> = {
  GB: [['Private limited company', 'Public limited company']],
  AU: [['Australian Private Company', 'Australian Public Company']],
  CA: [['Canada Business Corporations Act', 'Canada Not-for-profit Corporations Act']],
  FR: [['SAS, société par actions simplifiée', 'Société à responsabilité limitée (sans autre indication)']],
  DK: [['Anpartsselskab', 'Aktieselskab']],
  NO: [['Aksjeselskap', 'Allmennaksjeselskap']],
};

function formerLegalForm(country: CountryCode, current: string | null): string {
  const pairs = LEGAL_FORM_PAIRS[country];
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
