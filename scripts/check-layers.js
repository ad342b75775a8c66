#!/usr/bin/env node
// The layering rules of docs/architecture.md, checked on every `npm run lint`:
// - platform/ (the bottom layer) imports no other folder of src/;
// - nothing imports app/ or cli/ but the entry points (main.ts, worker.ts, cli/);
// - no two top-level folders of src/ import each other (events/<x>/ count as folders of their
//   own, and the files directly in events/ import none of them);
// - no list of countries is written outside registers/ (migrations, a record of the past, aside).
// Specs are test code and may assemble anything.
const { readFileSync, readdirSync, statSync } = require('node:fs');
const { dirname, join, relative, resolve, sep } = require('node:path');

const ROOT = join(__dirname, '..');

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The folder a file belongs to for the rules: its top folder of src/, or events/<x>; '' for src/*.ts. */
function unitOf(file, SRC) {
  const parts = relative(SRC, file).split(sep);
  if (parts.length === 1) return '';
  if (parts[0] === 'events' && parts.length > 2) return `events/${parts[1]}`;
  return parts[0];
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => resolve(dirname(file), m[1]));
}

function countryCodes(SRC) {
  const table = readFileSync(join(SRC, 'registers', 'registers.ts'), 'utf8');
  const body = table.slice(table.indexOf('export const REGISTERS'));
  return [...body.slice(0, body.indexOf('}')).matchAll(/^\s+([A-Z]{2}):/gm)].map((m) => m[1]);
}

/** The problems of the tree under `SRC` (the project's src/ by default). */
function check(SRC = join(ROOT, 'src')) {
  const problems = [];
  const edges = new Map();
  const files = sourceFiles(SRC);
  for (const file of files) {
    const from = unitOf(file, SRC);
    const rel = relative(dirname(SRC), file);
    for (const target of importsOf(file)) {
      if (!target.startsWith(SRC + sep)) continue;
      const to = unitOf(target.endsWith('.ts') ? target : `${target}.ts`, SRC);
      if (from === to) continue;
      if (from === 'platform')
        problems.push(`${rel}: platform/ imports ${to || 'src/'} (the bottom layer imports no feature)`);
      if ((to === 'app' || to === 'cli') && from !== '' && from !== 'cli' && from !== 'app')
        problems.push(`${rel}: imports ${to}/, which only the entry points may import`);
      if (from === 'events' && to.startsWith('events/'))
        problems.push(`${rel}: the shared files of events/ import ${to}/`);
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from).has(to)) edges.get(from).set(to, rel);
    }
  }
  for (const [a, targets] of edges) {
    for (const [b, where] of targets) {
      if (a < b && edges.get(b)?.has(a))
        problems.push(`${a}/ and ${b}/ import each other (${where}; ${edges.get(b).get(a)})`);
    }
  }
  const codes = countryCodes(SRC);
  const code = `(?:${codes.join('|')})`;
  const list = new RegExp(`\\b${code}\\b['"]?\\s*(?:,|\\bor\\b|\\band\\b)\\s*['"]?\\b${code}\\b`);
  for (const file of files) {
    const rel = relative(SRC, file);
    if (rel.startsWith(`registers${sep}`) || rel.startsWith(join('app', 'migrations'))) continue;
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (list.test(line))
          problems.push(`src/${rel}:${i + 1}: a list of countries outside registers/: ${line.trim()}`);
      });
  }
  return problems;
}

if (require.main === module) {
  const problems = check();
  if (problems.length) {
    console.error(`Layering: ${problems.length} problem(s) (docs/architecture.md):\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log('Layering: every import points down, no folders import each other, one list of countries.');
}

module.exports = { check, unitOf };
