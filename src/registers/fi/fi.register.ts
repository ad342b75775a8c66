import type { Register } from '../register';
import { FI_BULK_FORMATS } from './fi.bulk-formats';
import { FI_CHANGE_DETECTION } from './fi.change-detection';
import { FiConnector } from './fi.connector';
import { FI_DEFINITION } from './fi.definition';
import { recognizeFiIdentifier } from './fi.identifier';

/** Everything the service knows of this register: see `Register`. */
export const FI_REGISTER: Register = {
  definition: FI_DEFINITION,
  createConnector: (deps) => new FiConnector(deps),
  recognizeIdentifier: recognizeFiIdentifier,
  bulkFormats: FI_BULK_FORMATS,
  // Oyj (julkinen osakeyhtiö), Abp (its Swedish form), Tmi (toiminimi); "Oy", "Ab", "Ky" are under three letters.
  nameStopWords: ['oyj', 'abp', 'tmi'],
  changeDetection: FI_CHANGE_DETECTION,
  // "Rekisterissä" as the recorded trade register entry words it; "Selvitystila" (liquidation)
  // as the parser words a current SELTILA situation, which a company can leave to go on trading.
  simulation: {
    status: { active: 'Rekisterissä', inactive: 'Selvitystila' },
    legalFormPairs: [['Osakeyhtiö', 'Julkinen osakeyhtiö']],
  },
};
