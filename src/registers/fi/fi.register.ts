import type { Register } from '../register';
import { FI_BULK_FORMATS } from './fi.bulk-formats';
import { FI_CHANGE_DETECTION } from './fi.change-detection';
import { FiConnector } from './fi.connector';
import { FI_DEFINITION } from './fi.definition';
import { recognizeFiIdentifier } from './fi.identifier';

/** Everything the service knows of this register: see `Register`. */
export const FI_REGISTER: Register = {
  definition: FI_DEFINITION,
  createConnector: (deps) => new FiConnector(deps),
  recognizeIdentifier: recognizeFiIdentifier,
  bulkFormats: FI_BULK_FORMATS,
  // Oyj (julkinen osakeyhtiö), Abp (its Swedish form), Tmi (toiminimi); "Oy", "Ab", "Ky" are under three letters.
  nameStopWords: ['oyj', 'abp', 'tmi'],
  changeDetection: FI_CHANGE_DETECTION,
  // TODO(integration): the register's own wording
  simulation: { status: { active: '', inactive: '' }, legalFormPairs: [] },
};
