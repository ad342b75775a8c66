import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/*
 * A new embedded data directory is a copy of a prepared one — initdb, every migration and the
 * bundled sample already done — instead of running all of them at first boot (most of a cold
 * start's time is initdb inside WASM). The template is keyed by what it holds: the list of
 * migrations, the seed and its version, and the PGlite version, so that a change of any of
 * them makes a new one (`npm run build` prepares it; a directory with no matching template
 * is created the long way, and behaves the same). Migrations added later still apply to a
 * directory made from an older template: it is an ordinary migrated database.
 */

/** PGlite's version (its package.json is not exported: read from beside its entry point). */
function pgliteVersion(): string {
  let dir = dirname(require.resolve('@electric-sql/pglite'));
  for (let i = 0; i < 4; i++, dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  }
  return 'unknown';
}
export const PGLITE_VERSION = pgliteVersion();

/** Where templates are kept: beside the compiled code (dist/embedded-template). */
export function templateRoot(): string {
  return resolve(__dirname, '..', '..', 'embedded-template');
}

export function templatePath(key: string, root = templateRoot()): string {
  return join(root, key);
}

/** The template of `key` as a PGlite data-directory dump, for databases in memory (tests, memory://). */
export function templateDump(key: string, root = templateRoot()): Buffer | null {
  const file = join(root, `${key}.tgz`);
  return existsSync(file) ? readFileSync(file) : null;
}

/** True when `dir` holds no database yet (absent or empty). */
export function isEmptyDataDir(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

/**
 * Fills an empty data directory with a copy of the template, when there is one: copied beside
 * it, then renamed into place, so that a crash mid-copy never leaves half a database. Returns
 * whether it did. Runs inside openPGlite, under whatever holds the data directory.
 */
export function createFromTemplate(dataDir: string, key: string, root = templateRoot()): boolean {
  const template = templatePath(key, root);
  if (!isEmptyDataDir(dataDir) || !existsSync(join(template, 'PG_VERSION'))) return false;
  const staging = join(dirname(dataDir), `.${basename(dataDir)}.from-template-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  cpSync(template, staging, { recursive: true });
  rmSync(dataDir, { recursive: true, force: true });
  renameSync(staging, dataDir);
  return true;
}

/** Moves a freshly built data directory (and its dump) into place as the template of `key` (the first builder wins). */
export function installTemplate(built: string, key: string, root = templateRoot(), dump?: Buffer): void {
  mkdirSync(root, { recursive: true });
  if (dump) {
    const staging = join(root, `.${key}.tgz.${process.pid}`);
    writeFileSync(staging, dump);
    renameSync(staging, join(root, `${key}.tgz`));
  }
  const target = templatePath(key, root);
  if (existsSync(join(target, 'PG_VERSION'))) {
    rmSync(built, { recursive: true, force: true });
    return;
  }
  rmSync(target, { recursive: true, force: true });
  renameSync(built, target);
  // Templates of the same kind with other keys are out of date: remove them.
  const kind = key.split('-')[0];
  for (const other of readdirSync(root)) {
    if (other !== key && other !== `${key}.tgz` && other.split('-')[0] === kind)
      rmSync(join(root, other), { recursive: true, force: true });
  }
}
