import type { Register } from '../register';
import { NO_BULK_FORMATS } from './no.bulk-formats';
import { NO_CHANGE_DETECTION } from './no.change-detection';
import { NoConnector } from './no.connector';
import { NO_DEFINITION } from './no.definition';
import { recognizeNoIdentifier } from './no.identifier';

/** Everything the service knows of this register: see `Register`. */
export const NO_REGISTER: Register = {
  definition: NO_DEFINITION,
  createConnector: (deps) => new NoConnector(deps),
  recognizeIdentifier: recognizeNoIdentifier,
  bulkFormats: NO_BULK_FORMATS,
  nameStopWords: ['asa', 'ans', 'enk', 'nuf'],
  changeDetection: NO_CHANGE_DETECTION,
  simulation: {
    status: { active: 'Registrert', inactive: 'Under avvikling' },
    legalFormPairs: [['Aksjeselskap', 'Allmennaksjeselskap']],
    officer: { name: 'Kari Nordmann', role: 'Styremedlem' },
  },
};
