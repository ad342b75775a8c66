import type { Register } from '../register';
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
  // TODO(integration): the register's own wording
  simulation: { status: { active: '', inactive: '' }, legalFormPairs: [] },
};
