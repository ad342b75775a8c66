import { ensureTemplate } from '../../src/app/embedded-template-builder';
import type { AppConfig } from '../../src/platform/config/app-config';

/**
 * Prepares the embedded template a spec's PGlite database is made from, when it is not there.
 *
 * Specs run the TypeScript sources, whose templates live in src/embedded-template (ignored by
 * git) under keys of the migrations' code as ts-jest compiles it: `npm run build`'s templates
 * in dist/ never match them. Without one, every database a spec opens runs initdb and every
 * migration inside WASM (1.6 s a boot here, against 0.45 s copied from the template); the
 * first spec that needs it builds it, once for every later run. Two builders at once are
 * harmless: the first to install wins (installTemplate). Not done in Jest's globalSetup:
 * Node's resolver there finds `bundled-sample.json` before `bundled-sample.ts`.
 */
export async function ensureEmbeddedTemplate(config: AppConfig): Promise<void> {
  if (!config.databaseUrl && config.migrateOnBoot) await ensureTemplate(config.datasetSeed);
}
