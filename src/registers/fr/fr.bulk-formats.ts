import type { DatasetFormat } from '../bulk/dataset-format';
import { readFrStockUniteLegale } from './fr-stock-unite-legale.reader';

/** The bulk files of this register the dataset import reads (kept apart from the connector: the import loads none). */
export const FR_BULK_FORMATS: readonly DatasetFormat[] = [
  {
    id: 'stockunitelegale-csv',
    country: 'FR',
    description: 'INSEE Sirene StockUniteLegale CSV (zipped or not)',
    defaultDatasetName: 'insee-sirene-stockunitelegale',
    zipEntry: /\.csv$/i,
    read: readFrStockUniteLegale,
    expects: 'a CSV whose header line starts siren,statutDiffusionUniteLegale,…, then one line per unité légale',
  },
];
