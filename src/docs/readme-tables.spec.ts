import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENV_VARIABLES } from '../platform/config/app-config';
import { REGISTER_TABLE } from '../registers/registers';
import { GENERATED_TABLES, renderTables } from './readme-tables';

const ROOT = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** Every Markdown page of the documentation: the README, CONTRIBUTING, bench/README and docs/. */
function pages(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  return ['README.md', 'CONTRIBUTING.md', 'bench/README.md', ...docs].filter((p) => existsSync(join(ROOT, p)));
}

describe('generated tables in the docs', () => {
  it.each(Object.keys(GENERATED_TABLES))(
    '%s has the tables the code generates (run `npm run docs:readme` after a change)',
    (path) => {
      const page = read(path);
      expect(page).toBe(renderTables(path, page));
    },
  );

  it('has table markers only where the generator writes, and every table the generator writes', () => {
    const found: Record<string, string[]> = {};
    for (const path of pages()) {
      const names = [...read(path).matchAll(/<!-- ([\w-]+):start -->/g)].map((m) => m[1]);
      if (names.length > 0) found[path] = names.sort();
    }
    const expected = Object.fromEntries(Object.entries(GENERATED_TABLES).map(([p, names]) => [p, [...names].sort()]));
    expect(found).toEqual(expected);
  });

  it('documents every variable the service reads, and every register variable', () => {
    const operations = read('docs/operations.md');
    for (const name of Object.keys(ENV_VARIABLES)) expect(operations).toContain(`\`${name}\``);
    for (const def of REGISTER_TABLE) {
      for (const purpose of Object.keys(def.endpoints))
        expect(operations).toContain(`\`REGISTER_${def.country}_${purpose}_URL\``);
      for (const name of Object.keys(def.credentials))
        expect(operations).toContain(`\`REGISTER_${def.country}_${name}\``);
    }
    // GLEIF's LEI index, configured like a register.
    for (const name of ['REGISTER_LEI_API_URL', 'REGISTER_LEI_WEB_URL']) expect(operations).toContain(`\`${name}\``);
  });

  it('says which source answers each register without and with credentials', () => {
    const api = read('docs/api.md');
    const coverage = api.slice(
      api.indexOf('<!-- coverage-table:start -->'),
      api.indexOf('<!-- coverage-table:end -->'),
    );
    expect(coverage).toMatch(/DK — CVR \| paused: fallback dataset only/);
    expect(coverage).toMatch(/FR — INSEE Sirene \| .*recherche-entreprises.*\(not official\)/);
  });
});
