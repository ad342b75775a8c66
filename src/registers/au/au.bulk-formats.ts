import type { DatasetFormat } from '../bulk/dataset-format';
import { readAuAbnBulk } from './au-abn-bulk.reader';
import { readAuAsicCompanies } from './au-asic-companies.reader';

/** The bulk files of this register the dataset import reads (kept apart from the connector: the import loads none). */
export const AU_BULK_FORMATS: readonly DatasetFormat[] = [
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
    expects:
      'a header line naming Company Name, ACN, Type, Class, Status… (tab- or comma-delimited), then one line per company name',
    recognize: (head) => /^(\uFEFF)?"?Company Name"?[\t,]/i.test(head),
  },
];
