import type { DatasetFormat } from '../bulk/dataset-format';

/**
 * KRS publishes no bulk download of its extracts (none found: UNVERIFIED), so there is no PL
 * dataset to fall back on: name, NIP and REGON queries find nothing while the API answers by
 * number, and a register outage is a 502 rather than a degraded answer.
 */
export const PL_BULK_FORMATS: readonly DatasetFormat[] = [];
