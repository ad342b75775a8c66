import type { Register } from '../register';
import { FI_BULK_FORMATS } from './fi.bulk-formats';
import { FI_CHANGE_DETECTION } from './fi.change-detection';
import { FiConnector } from './fi.connector';
import { FI_DEFINITION } from './fi.definition';
import { recognizeFiIdentifier } from './fi.identifier';

/** Everything the service knows of this register: its data, connector, identifiers, bulk files and name words. */
export const FI_REGISTER: Register = {
  definition: FI_DEFINITION,
  connector: FiConnector,
  recognizeIdentifier: recognizeFiIdentifier,
  bulkFormats: FI_BULK_FORMATS,
  // Oyj (julkinen osakeyhtiö), Abp (its Swedish form), Tmi (toiminimi); "Oy", "Ab", "Ky" are under three letters.
  nameStopWords: ['oyj', 'abp', 'tmi'],
  changeDetection: FI_CHANGE_DETECTION,
};
