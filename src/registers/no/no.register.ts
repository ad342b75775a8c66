import type { Register } from '../register';
import { readNoEnheter } from './no-enheter.reader';
import { NO_CHANGE_DETECTION } from './no.change-detection';
import { NoConnector } from './no.connector';
import { NO_DEFINITION } from './no.definition';
import { recognizeNoIdentifier } from './no.identifier';

/** Everything the service knows of this register: its data, connector, identifiers, bulk files and name words. */
export const NO_REGISTER: Register = {
  definition: NO_DEFINITION,
  connector: NoConnector,
  recognizeIdentifier: recognizeNoIdentifier,
  bulkFormats: [
    {
      id: 'enheter-json',
      country: 'NO',
      description: 'Brønnøysund Enhetsregisteret /enheter/lastned: gzipped JSON array of units',
      defaultDatasetName: 'brreg-enheter',
      zipEntry: /\.json$/i,
      read: readNoEnheter,
      expects: 'a JSON array of Enhet objects: [{"organisasjonsnummer": "…", "navn": "…", …}, …]',
    },
  ],
  nameStopWords: ['asa', 'ans', 'enk', 'nuf'],
  changeDetection: NO_CHANGE_DETECTION,
};
