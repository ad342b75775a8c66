import { stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../core/config/app-config';
import { buildDataSourceOptions } from '../../database/data-source-options';
import { runMigrations } from '../../database/migrate';
import { DATASET_FORMATS } from './dataset-formats';
import { importDataset, ImportUsageError, resolveCountry, resolveFormat } from './dataset-importer';
import { DatasetFileError } from './dataset-row';
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

async function run(argv: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
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
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  if (!values.country) throw new ImportUsageError('--country is required (GB, FR, NO, DK, AU or CA)');
  if (!values.file) throw new ImportUsageError('--file is required');
  const country = resolveCountry(values.country);
  const format = resolveFormat(country, values.format);
  const producedAt = values['produced-at'] ? parseDay(values['produced-at']) : undefined;
  const batchSize = values['batch-size'] ? Number(values['batch-size']) : undefined;
  if (batchSize !== undefined && (!Number.isInteger(batchSize) || batchSize < 1)) throw new ImportUsageError('--batch-size must be a positive integer');
  try {
    if (!(await stat(values.file)).isFile()) throw new DatasetFileError(`${values.file} is not a file`);
  } catch (err) {
    if (err instanceof DatasetFileError) throw err;
    throw new DatasetFileError(`file not found: ${values.file}`);
  }

  const config = AppConfig.fromEnv(env, 'worker');
  const dataSource = new DataSource(buildDataSourceOptions(config));
  await dataSource.initialize();
  try {
    await runMigrations(dataSource);
    const label = `${country} ${format.id}`;
    const summary = await importDataset({
      dataSource,
      config,
      country,
      format: format.id,
      file: values.file,
      datasetName: values['dataset-name'],
      producedAt,
      batchSize,
      progress: io.isTTY ? new TtyProgress(label) : new LogProgress(label, io.err),
    });
    io.out(formatImportSummary(summary));
    return 0;
  } finally {
    await dataSource.destroy();
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
export async function runDatasetImportCli(argv: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  try {
    return await run(argv, env, io);
  } catch (err) {
    const usage = err instanceof ImportUsageError;
    io.err(`dataset:import: ${(err as Error).message.split('\n').map((l) => l.trim()).join(' ')}`);
    if (usage) io.err('Run with --help for the usage.');
    return usage ? 2 : 1;
  }
}
