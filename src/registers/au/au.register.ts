import type { Register } from '../register';
import { AU_BULK_FORMATS } from './au.bulk-formats';
import { AU_CHANGE_DETECTION } from './au.change-detection';
import { AuConnector } from './au.connector';
import { AU_DEFINITION } from './au.definition';
import { recognizeAuIdentifier } from './au.identifier';

/** Everything the service knows of this register: its data, connector, identifiers, bulk files and name words. */
export const AU_REGISTER: Register = {
  definition: AU_DEFINITION,
  connector: AuConnector,
  recognizeIdentifier: recognizeAuIdentifier,
  bulkFormats: AU_BULK_FORMATS,
  nameStopWords: ['pty', 'proprietary'],
  changeDetection: AU_CHANGE_DETECTION,
};
