import 'reflect-metadata';
import { adminSetup } from '../app/config';
import { runDatasetImportCli } from '../dataset/import/dataset-import-cli';

/** `npm run dataset:import -- --country NO --file <path> [--format …] [--dataset-name …] [--produced-at YYYY-MM-DD]` */
void runDatasetImportCli(
  process.argv.slice(2),
  process.env,
  {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
    isTTY: Boolean(process.stderr.isTTY),
  },
  adminSetup,
).then((code) => process.exit(code));
