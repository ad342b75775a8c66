import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATED_TABLES, renderTables } from '../docs/readme-tables';

/** `npm run docs:readme`: regenerates the tables of the docs pages from the code. */
const root = join(__dirname, '..', '..');
for (const path of Object.keys(GENERATED_TABLES)) {
  const file = join(root, path);
  const before = readFileSync(file, 'utf8');
  const after = renderTables(path, before);
  writeFileSync(file, after);
  console.log(`${path}: ${before === after ? 'tables already up to date' : 'tables updated'}.`);
}
