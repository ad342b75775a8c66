import { CreateStatusTables1763770000000 } from './1763770000000-CreateStatusTables';
import { CreateCompanyTable1763770001000 } from './1763770001000-CreateCompanyTable';
import { CreateDatasetImportTable1763770002000 } from './1763770002000-CreateDatasetImportTable';

/** In order. A new migration is added here as well as in this folder. */
export const MIGRATIONS = [CreateStatusTables1763770000000, CreateCompanyTable1763770001000, CreateDatasetImportTable1763770002000];
