import type { Register } from '../register';
import { AU_BULK_FORMATS } from './au.bulk-formats';
import { AU_CHANGE_DETECTION } from './au.change-detection';
import { AuConnector } from './au.connector';
import { AU_DEFINITION } from './au.definition';
import { recognizeAuIdentifier } from './au.identifier';

/** Everything the service knows of this register: see `Register`. */
export const AU_REGISTER: Register = {
  definition: AU_DEFINITION,
  createConnector: (deps) => new AuConnector(deps),
  recognizeIdentifier: recognizeAuIdentifier,
  bulkFormats: AU_BULK_FORMATS,
  nameStopWords: ['pty', 'proprietary'],
  changeDetection: AU_CHANGE_DETECTION,
  simulation: {
    status: { active: 'Active', inactive: 'Cancelled' },
    legalFormPairs: [['Australian Private Company', 'Australian Public Company']],
  },
};
