import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { templatePath } from '../platform/database/embedded-template';
import { ensureTemplate } from '../app/embedded-template-builder';

/**
 * Prepares the template new embedded data directories are copied from (run by `npm run build`):
 * a PGlite database with every migration applied and the bundled sample loaded. Does nothing
 * when the template of the current key is there already.
 */
async function main(): Promise<void> {
  Logger.overrideLogger(['warn', 'error']);
  // Seeded: what `npm start` creates; empty: DATASET_SEED=false and the tests' databases.
  for (const seed of [true, false]) {
    const key = await ensureTemplate(seed);
    if (key) console.log(`embedded template ${key} prepared in ${templatePath(key)}`);
  }
}

main().catch((err: Error) => {
  // A missing template only makes the first start slower: never fail the build for it.
  console.error(`embedded template not prepared: ${err.message}`);
});
