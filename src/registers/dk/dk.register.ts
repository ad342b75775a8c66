import type { Register } from '../register';
import { DK_BULK_FORMATS } from './dk.bulk-formats';
import { DK_CHANGE_DETECTION } from './dk.change-detection';
import { DkConnector } from './dk.connector';
import { DK_DEFINITION } from './dk.definition';
import { recognizeDkIdentifier } from './dk.identifier';

/** Everything the service knows of this register: its data, connector, identifiers, bulk files and name words. */
export const DK_REGISTER: Register = {
  definition: DK_DEFINITION,
  connector: DkConnector,
  recognizeIdentifier: recognizeDkIdentifier,
  bulkFormats: DK_BULK_FORMATS,
  nameStopWords: ['aps', 'ivs', 'amba', 'fmba', 'smba'],
  changeDetection: DK_CHANGE_DETECTION,
};
