import type { DatasetFormat } from './bulk/dataset-format';
import type { ChangeDetectionPlan } from './change-detection';
import type { ConnectorDeps, RegisterConnector } from './connector';
import type { IdentifierRecognizer } from './identifier';
import type { RegisterDefinition } from './register-definition';

/**
 * One register, all of it: the table row (data, with the environment variables it reads), the
 * connector that reads it live, how its registration numbers are recognised offline, the
 * readers of its official bulk files, the legal-form words of its names that carry no meaning
 * in a name search, how change detection follows it, and what the simulator makes up.
 * Each register's folder (`registers/<cc>/`) exports one; `registers.ts` collects them.
 */
export interface Register {
  definition: RegisterDefinition;
  createConnector(deps: ConnectorDeps): RegisterConnector;
  recognizeIdentifier: IdentifierRecognizer;
  bulkFormats: readonly DatasetFormat[];
  /** Why `bulkFormats` is empty (the register publishes no bulk file the service reads); said by `dataset:import`. */
  noBulkFile?: string;
  /** Legal forms and particles common in this register's names (folded, lower case), on top of the common ones. */
  nameStopWords: readonly string[];
  changeDetection: ChangeDetectionPlan;
  /** Wording the simulator's plausible test changes use (`previous` values a register could have held). */
  simulation: RegisterSimulation;
}

export interface RegisterSimulation {
  /** Status wording as the register writes it: an active one, and one a company leaves to become active again. */
  status: { active: string; inactive: string };
  /** Pairs of legal forms a company moves between (private ↔ public, and the like), in the register's words. */
  legalFormPairs: Array<[string, string]>;
  /**
   * An officer as the register writes one (a placeholder name, a role in its words), for a test
   * company.officers_changed of a bundled company; absent where detection sends no officer event.
   */
  officer?: { name: string; role: string };
  /** A filing as the register lists one, for a test company.filing_published; absent where detection sends none. */
  filing?: { category: string; type: string; descriptionCode: string; description: string };
}
