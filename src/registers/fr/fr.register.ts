import type { Register } from '../register';
import { readFrStockUniteLegale } from './fr-stock-unite-legale.reader';
import { FR_CHANGE_DETECTION } from './fr.change-detection';
import { FrConnector } from './fr.connector';
import { FR_DEFINITION } from './fr.definition';
import { recognizeFrIdentifier } from './fr.identifier';

/** Everything the service knows of this register: its data, connector, identifiers, bulk files and name words. */
export const FR_REGISTER: Register = {
  definition: FR_DEFINITION,
  connector: FrConnector,
  recognizeIdentifier: recognizeFrIdentifier,
  bulkFormats: [
    {
      id: 'stockunitelegale-csv',
      country: 'FR',
      description: 'INSEE Sirene StockUniteLegale CSV (zipped or not)',
      defaultDatasetName: 'insee-sirene-stockunitelegale',
      zipEntry: /\.csv$/i,
      read: readFrStockUniteLegale,
      expects: 'a CSV whose header line starts siren,statutDiffusionUniteLegale,…, then one line per unité légale',
    },
  ],
  nameStopWords: ['sas', 'sasu', 'sarl', 'eurl', 'sci', 'snc', 'scop', 'les', 'des', 'cie'],
  changeDetection: FR_CHANGE_DETECTION,
};
