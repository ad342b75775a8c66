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
  bulkFormats: [],
  noBulkFile:
    'ARES publishes no bulk file: the fallback dataset holds only the bundled sample’s subjects, so a CZ outage answers from them or with upstream_error. The public register’s open data (dataor.justice.cz) is not read yet.',
  // What legal forms leave once normalizeName folds them: "spol." of "spol. s r.o.", "sro" written without dots.
  nameStopWords: ['spol', 'sro'],
  changeDetection: CZ_CHANGE_DETECTION,
  simulation: {
    // ARES publishes state codes; these are the service's Czech words for them (ares-code-lists.ts, aresStatus).
    status: { active: 'Aktivní', inactive: 'Aktivní, v insolvenčním rejstříku' },
    // A conversion (přeměna) of an s.r.o. into an a.s. and back changes only the legal form.
    legalFormPairs: [['Společnost s ručením omezeným', 'Akciová společnost']],
    officer: { name: 'Jan Novák', role: 'Člen statutárního orgánu' },
  },
};
