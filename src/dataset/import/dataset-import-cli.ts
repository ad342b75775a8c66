import { stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import type { AdminCommand, AdminIo, AdminSetup } from '../../platform/admin/admin-command';
import { runAdminCommand } from '../../platform/admin/run-admin-command';
import { runMigrations } from '../../platform/database/migrate';
import { databaseFailure } from '../../platform/database/database-errors';
import { DATASET_FORMATS, formatsOf } from './dataset-formats';
import { importDataset, ImportUsageError, recognizeFormat, resolveCountry, resolveFormat } from './dataset-importer';
import { DatasetFileError } from '../../registers/bulk/dataset-row';
import { RegistersConfig } from '../../registers/register-config';
import { COUNTRY_CODES, countryList } from '../../registers/registers';
import { ensureCompanyPartitions } from '../company-partitions';
import { LogProgress, TtyProgress } from './import-progress';
import { formatImportSummary } from './import-summary';

const USAGE = `usage: npm run dataset:import -- --country <CC> --file <path> [--format <id>] [--dataset-name <name>] [--produced-at YYYY-MM-DD]

Imports a register's official bulk file (plain, .gz or .zip) into the fallback dataset of
DATABASE_URL (Postgres, with COPY) or of the embedded database in DATA_DIR.

formats:
${DATASET_FORMATS.map((f) => `  ${f.country} ${f.id.padEnd(22)} ${f.description}`).join('\n')}`;

function parseDay(value: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const d = m ? new Date(Date.UTC(+m[1], +m[2] - 1, +m[3])) : null;
  if (!m || !d || d.getUTCDate() !== +m[3] || d.getUTCMonth() !== +m[2] - 1) {
    throw new ImportUsageError(`--produced-at must be a date YYYY-MM-DD, not "${value}"`);
  }
  return d;
}

interface ImportArgs {
  country: ReturnType<typeof resolveCountry>;
  format: ReturnType<typeof resolveFormat>;
  file: string;
  datasetName?: string;
  producedAt?: Date;
  batchSize?: number;
}

/** Checks the arguments (and that the file exists, relative to `cwd`); null for --help. */
async function parseImportArgs(argv: string[], cwd: string): Promise<ImportArgs | null> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        country: { type: 'string' },
        file: { type: 'string' },
        format: { type: 'string' },
        'dataset-name': { type: 'string' },
        'produced-at': { type: 'string' },
        'batch-size': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new ImportUsageError((err as Error).message.split('\n')[0]);
  }
  if (values.help) return null;
  if (!values.country) throw new ImportUsageError(`--country is required (${countryList()})`);
  if (!values.file) throw new ImportUsageError('--file is required');
  const country = resolveCountry(values.country);
  // A format not the country's, or a country without a bulk file, is refused before the file is looked for.
  if (values.format || formatsOf(country).length === 0) resolveFormat(country, values.format);
  const producedAt = values['produced-at'] ? parseDay(values['produced-at']) : undefined;
  const batchSize = values['batch-size'] ? Number(values['batch-size']) : undefined;
  if (batchSize !== undefined && (!Number.isInteger(batchSize) || batchSize < 1))
    throw new ImportUsageError('--batch-size must be a positive integer');
  const file = resolve(cwd, values.file);
  try {
    if (!(await stat(file)).isFile()) throw new DatasetFileError(`${values.file} is not a file`);
  } catch (err) {
    if (err instanceof DatasetFileError) throw err;
    throw new DatasetFileError(`file not found: ${values.file}`);
  }
  const format = await recognizeFormat(country, file, values.format);
  return { country, format, file, datasetName: values['dataset-name'], producedAt, batchSize };
}

/**
 * The import as an operator command: run here on a database this process opened, or inside
 * the running embedded service (over its admin socket) on the service's own database.
 */
export const DATASET_IMPORT_COMMAND: AdminCommand = {
  name: 'dataset:import',
  run: (context) =>
    reportingErrors(context.io, async () => {
      const args = await parseImportArgs(context.argv, context.cwd);
      if (!args) {
        context.io.out(USAGE);
        return 0;
      }
      await runMigrations(context.dataSource);
      await ensureCompanyPartitions(context.dataSource, COUNTRY_CODES);
      const label = `${args.country} ${args.format.id}`;
      const isTTY = (context.io as Partial<CliIo>).isTTY === true;
      const summary = await importDataset({
        dataSource: context.dataSource,
        config: context.config,
        registers: context.get(RegistersConfig),
        country: args.country,
        format: args.format.id,
        file: args.file,
        datasetName: args.datasetName,
        producedAt: args.producedAt,
        batchSize: args.batchSize,
        progress: isTTY ? new TtyProgress(label) : new LogProgress(label, context.io.err),
      });
      context.io.out(formatImportSummary(summary));
      return 0;
    }),
};

async function run(
  argv: string[],
  env: NodeJS.ProcessEnv,
  io: CliIo,
  setupFor: (env: NodeJS.ProcessEnv) => AdminSetup,
): Promise<number> {
  // Usage and file checks first, here, where the operator's paths are.
  const args = await parseImportArgs(argv, process.cwd());
  if (!args) {
    io.out(USAGE);
    return 0;
  }
  // Through the service, relative paths are resolved against this cwd, sent along.
  return runAdminCommand(DATASET_IMPORT_COMMAND, argv, setupFor(env), io);
}

/** One readable line on stderr (no stack): 2 for a usage error, 1 for a failed import. */
async function reportingErrors(io: AdminIo, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (err) {
    const usage = err instanceof ImportUsageError;
    io.err(
      `dataset:import: ${(databaseFailure(err as Error) ?? (err as Error).message)
        .split('\n')
        .map((l) => l.trim())
        .join(' ')}`,
    );
    if (usage) io.err('Run with --help for the usage.');
    return usage ? 2 : 1;
  }
}

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Progress bar on a terminal, periodic log lines otherwise. */
  isTTY: boolean;
}

/**
 * `npm run dataset:import`: returns the exit code. Any failure is one readable line on
 * stderr (no stack): 2 for a usage error, 1 for a failed import.
 */
export async function runDatasetImportCli(
  argv: string[],
  env: NodeJS.ProcessEnv,
  io: CliIo,
  setupFor: (env: NodeJS.ProcessEnv) => AdminSetup,
): Promise<number> {
  return reportingErrors(io, () => run(argv, env, io, setupFor));
}
