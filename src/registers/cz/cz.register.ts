import type { Register } from '../register';
import { CZ_CHANGE_DETECTION } from './cz.change-detection';
import { CzConnector } from './cz.connector';
import { CZ_DEFINITION } from './cz.definition';
import { recognizeCzIdentifier } from './cz.identifier';

/** Everything the service knows of this register: see `Register`. */
export const CZ_REGISTER: Register = {
  definition: CZ_DEFINITION,
  createConnector: (deps) => new CzConnector(deps),
  recognizeIdentifier: recognizeCzIdentifier,
  // ARES has no bulk file; the Ministry of Justice's VR open data (dataor.justice.cz) is not read yet (UNVERIFIED).
  bulkFormats: [],
  // What legal forms leave once normalizeName folds them: "spol." of "spol. s r.o.", "sro" written without dots.
  nameStopWords: ['spol', 'sro'],
  changeDetection: CZ_CHANGE_DETECTION,
  // TODO(integration): the register's own wording
  simulation: { status: { active: '', inactive: '' }, legalFormPairs: [] },
};
