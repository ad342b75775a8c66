import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { check } = require('../../scripts/check-layers.js') as { check: (src?: string) => string[] };

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
});
