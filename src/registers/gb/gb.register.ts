import type { Register } from '../register';
import { GB_BULK_FORMATS } from './gb.bulk-formats';
import { GB_CHANGE_DETECTION } from './gb.change-detection';
import { GbConnector } from './gb.connector';
import { GB_DEFINITION } from './gb.definition';
import { recognizeGbIdentifier } from './gb.identifier';

/** Everything the service knows of this register: see `Register`. */
export const GB_REGISTER: Register = {
  definition: GB_DEFINITION,
  createConnector: (deps) => new GbConnector(deps),
  recognizeIdentifier: recognizeGbIdentifier,
  bulkFormats: GB_BULK_FORMATS,
  nameStopWords: [],
  changeDetection: GB_CHANGE_DETECTION,
  simulation: {
    status: { active: 'Active', inactive: 'Active - Proposal to Strike off' },
    legalFormPairs: [['Private limited company', 'Public limited company']],
    officer: { name: 'SMITH, Jane Elizabeth', role: 'Director' },
    filing: {
      category: 'accounts',
      type: 'AA',
      descriptionCode: 'accounts-with-accounts-type-micro-entity',
      description: 'Accounts with accounts type micro entity, made up date {made_up_date}',
    },
  },
};
