import type { Register } from '../register';
import { CA_BULK_FORMATS } from './ca.bulk-formats';
import { CA_CHANGE_DETECTION } from './ca.change-detection';
import { CaConnector } from './ca.connector';
import { CA_DEFINITION } from './ca.definition';
import { recognizeCaIdentifier } from './ca.identifier';

/** Everything the service knows of this register: see `Register`. */
export const CA_REGISTER: Register = {
  definition: CA_DEFINITION,
  createConnector: (deps) => new CaConnector(deps),
  recognizeIdentifier: recognizeCaIdentifier,
  bulkFormats: CA_BULK_FORMATS,
  nameStopWords: ['ltee', 'limitee', 'incorporated', 'cie', 'les', 'des'],
  changeDetection: CA_CHANGE_DETECTION,
  simulation: {
    status: { active: 'Active', inactive: 'Dissolved' },
    legalFormPairs: [['Canada Business Corporations Act', 'Canada Not-for-profit Corporations Act']],
    officer: { name: 'John Smith', role: 'Director' },
  },
};
