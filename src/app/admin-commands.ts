import { ADMIN_COMMAND } from '../events/accounts/admin/admin-commands';
import { DATASET_IMPORT_COMMAND } from '../dataset/import/dataset-import-cli';
import { MIGRATION_RUN_COMMAND } from './migration-run.command';
import type { AdminCommand } from '../platform/admin/admin-command';

/**
 * Every operator command that can run through the running embedded service. A new command is
 * one AdminCommand added here, and its CLI entry calls runAdminCommand(command, argv, config, io).
 */
export const ADMIN_COMMAND_LIST: readonly AdminCommand[] = [
  MIGRATION_RUN_COMMAND,
  DATASET_IMPORT_COMMAND,
  ADMIN_COMMAND,
];
