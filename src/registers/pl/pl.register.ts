import type { Register } from '../register';
import { KRS_REGISTERED } from './krs-parsers';
import { PL_BULK_FORMATS } from './pl.bulk-formats';
import { PL_CHANGE_DETECTION } from './pl.change-detection';
import { PlConnector } from './pl.connector';
import { PL_DEFINITION } from './pl.definition';
import { recognizePlIdentifier } from './pl.identifier';

/** Everything the service knows of this register: see `Register`. */
export const PL_REGISTER: Register = {
  definition: PL_DEFINITION,
  createConnector: (deps) => new PlConnector(deps),
  recognizeIdentifier: recognizePlIdentifier,
  bulkFormats: PL_BULK_FORMATS,
  noBulkFile:
    'KRS publishes no bulk file: the fallback dataset holds only the bundled sample’s entities, so a name, NIP or REGON query finds them alone, and a KRS outage answers from them or with upstream_error.',
  // Legal forms of KRS names, folded ("SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ" → "spolka z ograniczona odpowiedzialnoscia").
  nameStopWords: [
    'spolka',
    'ograniczona',
    'odpowiedzialnoscia',
    'akcyjna',
    'komandytowa',
    'komandytowo',
    'jawna',
    'partnerska',
  ],
  changeDetection: PL_CHANGE_DETECTION,
  // KRS has no status field: the parsers word an entered entity with the register's entry phrase
  // and one being wound up with the statutory suffix of its name (see krs-parsers.ts).
  simulation: {
    status: { active: KRS_REGISTERED, inactive: 'W LIKWIDACJI' },
    legalFormPairs: [['SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ', 'SPÓŁKA AKCYJNA']],
    officer: { name: 'Jan Kowalski', role: 'PREZES ZARZĄDU' },
  },
};
