import type { Type } from '@nestjs/common';
import type { DatasetFormat } from './bulk/dataset-format';
import type { ChangeDetectionPlan } from './change-detection';
import type { RegisterConnector } from './connector';
import type { IdentifierRecognizer } from './identifier';
import type { RegisterDefinition } from './register-definition';

/**
 * One register, all of it: the table row (data), the connector that reads it live, how its
 * registration numbers are recognised offline, the readers of its official bulk files, and
 * the legal-form words of its company names that carry no meaning in a name search, and how
 * change detection follows it (feed, stream or scheduled re-reads).
 * Each register's folder (`registers/<cc>/`) exports one; `registers.ts` collects them.
 */
export interface Register {
  definition: RegisterDefinition;
  connector: Type<RegisterConnector>;
  recognizeIdentifier: IdentifierRecognizer;
  bulkFormats: readonly DatasetFormat[];
  /** Legal forms and particles common in this register's names (folded, lower case), on top of the common ones. */
  nameStopWords: readonly string[];
  changeDetection: ChangeDetectionPlan;
}
