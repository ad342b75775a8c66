import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { check, TABLE_OWNERS } = require('../../scripts/check-layers.js') as {
  check: (src?: string) => string[];
  TABLE_OWNERS: Record<string, string>;
};

/** A small src/ tree: path → content. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'rl-layers-'));
  const src = join(root, 'src');
  const all = {
    'registers/registers.ts': `export const REGISTERS = {\n  GB: GB_REGISTER,\n  NO: NO_REGISTER,\n} satisfies X;\n`,
    ...files,
  };
  for (const [path, content] of Object.entries(all)) {
    mkdirSync(dirname(join(src, path)), { recursive: true });
    writeFileSync(join(src, path), content);
  }
  return src;
}

describe('the layering check (npm run lint)', () => {
  const made: string[] = [];
  const checked = (files: Record<string, string>) => {
    const src = tree(files);
    made.push(dirname(src));
    return check(src);
  };
  afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('passes the project itself', () => {
    expect(check()).toEqual([]);
  });

  it('passes imports that point down', () => {
    expect(
      checked({
        'platform/clock.ts': `export class Clock {}`,
        'search/search.ts': `import { Clock } from '../platform/clock';\nimport { REGISTERS } from '../registers/registers';`,
        'app/app.module.ts': `import '../search/search';`,
        'main.ts': `import './app/app.module';`,
      }),
    ).toEqual([]);
  });

  it('fails the bottom layer importing a feature', () => {
    expect(checked({ 'platform/config.ts': `import { REGISTERS } from '../registers/registers';` })).toEqual([
      expect.stringContaining('platform/ imports registers'),
    ]);
  });

  it('fails two folders that import each other, and a feature importing app/', () => {
    const problems = checked({
      'status/a.ts': `import { b } from '../search/b';`,
      'search/b.ts': `export const b = 1;\nimport { a } from '../status/a';`,
      'events/webhooks/w.ts': `import { x } from '../../app/x';`,
      'app/x.ts': `export const x = 1;`,
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/search\/ and status\/ import each other/),
        expect.stringContaining('imports app/, which only the entry points may import'),
      ]),
    );
  });

  it('fails a list of countries written outside registers/, but not in a migration or a spec', () => {
    const problems = checked({
      'events/monitoring/watch.ts': `const message = 'country must be GB or NO';`,
      'app/migrations/1-x.ts': `const COUNTRIES = ['GB', 'NO'];`,
      'search/search.spec.ts': `it.each(['GB', 'NO'])('%s', () => undefined);`,
    });
    expect(problems).toEqual([expect.stringContaining('a list of countries outside registers/')]);
  });

  it('passes SQL on a folder’s own tables, prose, other words and specs', () => {
    expect(
      checked({
        'events/webhooks/events/event-store.ts': `const sql = \`SELECT \${COLUMNS} FROM event e JOIN delivery d ON d.event_id = e.id\`;`,
        'events/monitoring/snapshots/snapshot-store.ts': [
          `const due = 'SELECT 1 FROM watch w WHERE w.entity_id = s.entity_id';`,
          // Not SQL (no upper-case keyword), and an account_id column is not the account table.
          `const message = 'the account of this watch is gone';`,
          `const sql = 'UPDATE watch SET baseline_at = $2 WHERE account_id = $1';`,
        ].join('\n'),
        // A comment is not a literal.
        'search/search.service.ts': `// reads company rows FROM the dataset, through DatasetService\nexport const x = 1;`,
        'events/webhooks/delivery/delivery.spec.ts': `await db.query(\`INSERT INTO account (id) VALUES ($1)\`, [id]);`,
        'app/migrations/1-x.ts': `await q.query(\`CREATE TABLE account (id text); CREATE TABLE company_\${lc} PARTITION OF company\`);`,
      }),
    ).toEqual([]);
  });

  it('fails SQL that names another folder’s table, in a string or a template, and a SQL function', () => {
    const problems = checked({
      'events/webhooks/events/event-publisher.service.ts': [
        `const a = await m.query(\`SELECT live_delivery_since FROM account WHERE id = $1\`, [id]);`,
        `const b = await m.query('SELECT id FROM account WHERE id = $1 FOR UPDATE', [id]);`,
      ].join('\n'),
      'events/monitoring/watches/watch.service.ts': `const c = \`SELECT count(*) FROM delivery d WHERE d.\${column} = $1\`;`,
      'search/search.service.ts': `const d = "SELECT * FROM company_name_matches($1) JOIN company_gb USING (id)";`,
    });
    expect(problems.sort()).toEqual([
      'src/events/monitoring/watches/watch.service.ts:1: SQL names delivery, which events/webhooks/ owns (go through what it exports)',
      'src/events/webhooks/events/event-publisher.service.ts:1: SQL names account, which events/accounts/ owns (go through what it exports)',
      'src/events/webhooks/events/event-publisher.service.ts:2: SQL names account, which events/accounts/ owns (go through what it exports)',
      'src/search/search.service.ts:1: SQL names company_gb, which dataset/ owns (go through what it exports)',
      'src/search/search.service.ts:1: SQL names company_name_matches, which dataset/ owns (go through what it exports)',
    ]);
  });

  it('fails a table a migration creates without an owner', () => {
    expect(checked({ 'app/migrations/2-y.ts': `await q.query(\`CREATE TABLE officer (id text)\`);` })).toEqual([
      expect.stringContaining('table officer has no owner'),
    ]);
  });

  it('names owners that are folders of src/', () => {
    for (const owner of new Set(Object.values(TABLE_OWNERS)))
      expect(existsSync(join(__dirname, '../../src', owner))).toBe(true);
  });
});
