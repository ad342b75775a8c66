import type { Register } from '../register';
import { readAuAbnBulk } from './au-abn-bulk.reader';
import { readAuAsicCompanies } from './au-asic-companies.reader';
import { AU_CHANGE_DETECTION } from './au.change-detection';
import { AuConnector } from './au.connector';
import { AU_DEFINITION } from './au.definition';
import { recognizeAuIdentifier } from './au.identifier';

/** Everything the service knows of this register: its data, connector, identifiers, bulk files and name words. */
export const AU_REGISTER: Register = {
  definition: AU_DEFINITION,
  connector: AuConnector,
  recognizeIdentifier: recognizeAuIdentifier,
  bulkFormats: [
    {
      id: 'abn-xml',
      country: 'AU',
      description: 'ABR ABN bulk extract XML (public_split_*.zip or one PublicNN.xml)',
      defaultDatasetName: 'abr-abn-bulk-extract',
      zipEntry: /\.xml$/i,
      read: readAuAbnBulk,
      expects: 'XML with <ABR> records inside a <Transfer> root, as the ABN bulk extract writes them',
      recognize: (head) => /^(\uFEFF)?\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<(Transfer|ABR)[\s>]/.test(head),
    },
    {
      id: 'asic-csv',
      country: 'AU',
      description: 'ASIC company dataset (tab- or comma-delimited text)',
      defaultDatasetName: 'asic-company-dataset',
      zipEntry: /\.(csv|txt|tsv)$/i,
      read: readAuAsicCompanies,
      expects: 'a header line naming Company Name, ACN, Type, Class, Status… (tab- or comma-delimited), then one line per company name',
      recognize: (head) => /^(\uFEFF)?"?Company Name"?[\t,]/i.test(head),
    },
  ],
  nameStopWords: ['pty', 'proprietary'],
  changeDetection: AU_CHANGE_DETECTION,
};
