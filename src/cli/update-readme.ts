import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderReadme } from '../docs/readme-tables';

/** `npm run docs:readme`: regenerates the README's tables from the code. */
const file = join(__dirname, '..', '..', 'README.md');
const before = readFileSync(file, 'utf8');
const after = renderReadme(before);
writeFileSync(file, after);
console.log(before === after ? 'README tables already up to date.' : 'README tables updated.');
