import type { Register } from '../register';
import { GB_BULK_FORMATS } from './gb.bulk-formats';
import { GB_CHANGE_DETECTION } from './gb.change-detection';
import { GbConnector } from './gb.connector';
import { GB_DEFINITION } from './gb.definition';
import { recognizeGbIdentifier } from './gb.identifier';

/** Everything the service knows of this register: its data, connector, identifiers, bulk files and name words. */
export const GB_REGISTER: Register = {
  definition: GB_DEFINITION,
  connector: GbConnector,
  recognizeIdentifier: recognizeGbIdentifier,
  bulkFormats: GB_BULK_FORMATS,
  nameStopWords: [],
  changeDetection: GB_CHANGE_DETECTION,
};
