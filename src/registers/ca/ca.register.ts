import type { Register } from '../register';
import { CA_BULK_FORMATS } from './ca.bulk-formats';
import { CA_CHANGE_DETECTION } from './ca.change-detection';
import { CaConnector } from './ca.connector';
import { CA_DEFINITION } from './ca.definition';
import { recognizeCaIdentifier } from './ca.identifier';

/** Everything the service knows of this register: its data, connector, identifiers, bulk files and name words. */
export const CA_REGISTER: Register = {
  definition: CA_DEFINITION,
  connector: CaConnector,
  recognizeIdentifier: recognizeCaIdentifier,
  bulkFormats: CA_BULK_FORMATS,
  nameStopWords: ['ltee', 'limitee', 'incorporated', 'cie', 'les', 'des'],
  changeDetection: CA_CHANGE_DETECTION,
};
