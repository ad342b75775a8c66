import type { CountryCode } from './registers';

/**
 * The service's stable identifier of a company: `ent_<country, lower case>_<registration
 * number as the register keys it>`, e.g. `ent_gb_04475590`, `ent_no_923609016`. It is what
 * webhooks carry as `data.entity_id`, and what watches (monitoring) are keyed by: the same
 * company always has the same id, whichever way it was found (name or number).
 */
export function entityId(country: CountryCode, registrationNumber: string): string {
  return `ent_${country.toLowerCase()}_${registrationNumber}`;
}
