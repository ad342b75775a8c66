#!/usr/bin/env node
// The layering rules of docs/architecture.md, checked on every `npm run lint`:
// - platform/ (the bottom layer) imports no other folder of src/;
// - nothing imports app/ or cli/ but the entry points (main.ts, worker.ts, cli/);
// - no two top-level folders of src/ import each other (events/<x>/ count as folders of their
//   own, and the files directly in events/ import none of them);
// - no list of countries is written outside registers/ (migrations, a record of the past, aside);
// - no SQL names a table (or SQL function) another folder owns (TABLE_OWNERS; migrations aside),
//   and every table a migration creates has an owner.
// Specs are test code and may assemble anything.
const { existsSync, readFileSync, readdirSync, statSync } = require('node:fs');
const { dirname, join, relative, resolve, sep } = require('node:path');
const ts = require('typescript');

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

/**
 * Each table, and each SQL function, and the one folder whose store or entity owns it (docs/architecture.md,
 * "Tables and their owners"). Any other folder goes through what the owner exports.
 */
const TABLE_OWNERS = {
  account: 'events/accounts',
  api_key: 'events/accounts',
  access_request: 'events/accounts',
  webhook_endpoint: 'events/webhooks',
  event: 'events/webhooks',
  event_sequence: 'events/webhooks',
  delivery: 'events/webhooks',
  delivery_attempt: 'events/webhooks',
  claim_deliveries: 'events/webhooks',
  watch: 'events/monitoring',
  company_snapshot: 'events/monitoring',
  feed_cursor: 'events/monitoring',
  stream_resource: 'events/monitoring',
  probe: 'status',
  register_state: 'status',
  register_status_transition: 'status',
  company: 'dataset',
  company_word: 'dataset',
  dataset_country: 'dataset',
  dataset_import: 'dataset',
  company_name_matches: 'dataset',
};
/** Tables made by name at run time: company's partition of each register (company_gb, …). */
const TABLE_FAMILIES = [{ pattern: 'company_[a-z]{2}', owner: 'dataset' }];

/** Words that make a string literal SQL (upper case: the house style for SQL, rare in prose). */
const SQL_WORDS = /\b(?:SELECT|INSERT|UPDATE|DELETE|FROM|JOIN|INTO|TRUNCATE|ANALYZE|COPY|ALTER TABLE|LOCK TABLE)\b/;
const TABLE_NAMES = new RegExp(
  `\\b(${[...Object.keys(TABLE_OWNERS), ...TABLE_FAMILIES.map((f) => f.pattern)].join('|')})\\b`,
  'g',
);

function ownerOf(table) {
  return TABLE_OWNERS[table] ?? TABLE_FAMILIES.find((f) => new RegExp(`^${f.pattern}$`).test(table))?.owner;
}

/** The string and template literals of a file, with their line (a template's expressions read as `${}`). */
function literalsOf(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    let text;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = node.text;
    else if (ts.isTemplateExpression(node))
      text = node.head.text + node.templateSpans.map((span) => '${}' + span.literal.text).join('');
    if (text !== undefined) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push({ text, line: line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The tables named by the SQL literals of a file. */
function sqlTablesOf(file) {
  const named = [];
  for (const { text, line } of literalsOf(file)) {
    if (!SQL_WORDS.test(text)) continue;
    for (const m of text.matchAll(TABLE_NAMES)) named.push({ table: m[1], line });
  }
  return named;
}

/** The tables the migrations create (a name completed at run time, as company's partitions, aside). */
function migratedTables(SRC) {
  const dir = join(SRC, 'app', 'migrations');
  if (!existsSync(dir)) return [];
  return sourceFiles(dir).flatMap((file) =>
    literalsOf(file).flatMap(({ text }) =>
      [...text.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?([a-z_][a-z0-9_]*)(\$\{\})?/g)]
        .filter((m) => !m[2])
        .map((m) => ({ table: m[1], file })),
    ),
  );
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
  for (const file of files) {
    const rel = relative(SRC, file);
    if (rel.startsWith(join('app', 'migrations'))) continue;
    const from = unitOf(file, SRC);
    const seen = new Set();
    for (const { table, line } of sqlTablesOf(file)) {
      const owner = ownerOf(table);
      const problem = `src/${rel}:${line}: SQL names ${table}, which ${owner}/ owns (go through what it exports)`;
      if (owner && owner !== from && !seen.has(problem)) problems.push(problem);
      seen.add(problem);
    }
  }
  for (const { table, file } of migratedTables(SRC)) {
    if (!ownerOf(table))
      problems.push(
        `src/${relative(SRC, file)}: table ${table} has no owner (TABLE_OWNERS in scripts/check-layers.js)`,
      );
  }
  return problems;
}

if (require.main === module) {
  const problems = check();
  if (problems.length) {
    console.error(`Layering: ${problems.length} problem(s) (docs/architecture.md):\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(
    'Layering: every import points down, no folders import each other, one list of countries, every table written by its owner.',
  );
}

module.exports = { check, unitOf, TABLE_OWNERS };
