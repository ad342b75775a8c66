import { CreateStatusTables1763770000000 } from './1763770000000-CreateStatusTables';
import { CreateCompanyTable1763770001000 } from './1763770001000-CreateCompanyTable';
import { CreateDatasetImportTable1763770002000 } from './1763770002000-CreateDatasetImportTable';
import { CreateEventSideTables1763770003000 } from './1763770003000-CreateEventSideTables';
import { WordIndexSearch1763780000000 } from './1763780000000-WordIndexSearch';
import { DatasetImportInterrupted1763780001000 } from './1763780001000-DatasetImportInterrupted';
import { CompanyNameMatches1763780002000 } from './1763780002000-CompanyNameMatches';
import { CreateDetectionTables1763790000000 } from './1763790000000-CreateDetectionTables';
import { WatchBelongsToAccount1763790001000 } from './1763790001000-WatchBelongsToAccount';
import { DeliveryClaimFunction1763800000000 } from './1763800000000-DeliveryClaimFunction';
import { PartitionCompanyByCountry1763810000000 } from './1763810000000-PartitionCompanyByCountry';
import { CompanyNameMatchesOnce1763820000000 } from './1763820000000-CompanyNameMatchesOnce';
import { StatusKeyedBySource1763825000000 } from './1763825000000-StatusKeyedBySource';
import { OfficerFilingEventsAndSequences1763900000000 } from './1763900000000-OfficerFilingEventsAndSequences';
import { EndpointCircuit1763950000000 } from './1763950000000-EndpointCircuit';
import { ClaimReadsItsDeliveries1764000000000 } from './1764000000000-ClaimReadsItsDeliveries';
import { ClaimInOneStatement1764100000000 } from './1764100000000-ClaimInOneStatement';
import { FilingsGap1764200000000 } from './1764200000000-FilingsGap';

/** In order. A new migration is added here as well as in this folder. */
export const MIGRATIONS = [
  CreateStatusTables1763770000000,
  CreateCompanyTable1763770001000,
  CreateDatasetImportTable1763770002000,
  CreateEventSideTables1763770003000,
  WordIndexSearch1763780000000,
  DatasetImportInterrupted1763780001000,
  CompanyNameMatches1763780002000,
  CreateDetectionTables1763790000000,
  WatchBelongsToAccount1763790001000,
  DeliveryClaimFunction1763800000000,
  PartitionCompanyByCountry1763810000000,
  CompanyNameMatchesOnce1763820000000,
  StatusKeyedBySource1763825000000,
  OfficerFilingEventsAndSequences1763900000000,
  EndpointCircuit1763950000000,
  ClaimReadsItsDeliveries1764000000000,
  ClaimInOneStatement1764100000000,
  FilingsGap1764200000000,
];
