import type { Register } from '../register';
import { DK_BULK_FORMATS } from './dk.bulk-formats';
import { DK_CHANGE_DETECTION } from './dk.change-detection';
import { DkConnector } from './dk.connector';
import { DK_DEFINITION } from './dk.definition';
import { recognizeDkIdentifier } from './dk.identifier';

/** Everything the service knows of this register: see `Register`. */
export const DK_REGISTER: Register = {
  definition: DK_DEFINITION,
  createConnector: (deps) => new DkConnector(deps),
  recognizeIdentifier: recognizeDkIdentifier,
  bulkFormats: DK_BULK_FORMATS,
  nameStopWords: ['aps', 'ivs', 'amba', 'fmba', 'smba'],
  changeDetection: DK_CHANGE_DETECTION,
  simulation: {
    status: { active: 'NORMAL', inactive: 'UNDER FRIVILLIG LIKVIDATION' },
    legalFormPairs: [['Anpartsselskab', 'Aktieselskab']],
    // FUNKTION values as CVR writes them (cvr-officers.ts).
    officer: { name: 'Jens Hansen', role: 'DIREKTØR' },
  },
};
