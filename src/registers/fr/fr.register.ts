import type { Register } from '../register';
import { FR_BULK_FORMATS } from './fr.bulk-formats';
import { FR_CHANGE_DETECTION } from './fr.change-detection';
import { FrConnector } from './fr.connector';
import { FR_DEFINITION } from './fr.definition';
import { recognizeFrIdentifier } from './fr.identifier';

/** Everything the service knows of this register: see `Register`. */
export const FR_REGISTER: Register = {
  definition: FR_DEFINITION,
  createConnector: (deps) => new FrConnector(deps),
  recognizeIdentifier: recognizeFrIdentifier,
  bulkFormats: FR_BULK_FORMATS,
  nameStopWords: ['sas', 'sasu', 'sarl', 'eurl', 'sci', 'snc', 'scop', 'les', 'des', 'cie'],
  changeDetection: FR_CHANGE_DETECTION,
  simulation: {
    status: { active: 'Active', inactive: 'Cessée' },
    legalFormPairs: [
      ['SAS, société par actions simplifiée', 'Société à responsabilité limitée (sans autre indication)'],
    ],
    officer: { name: 'Jean Dupont', role: 'Président' },
  },
};
