import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ModuleKind, transpileModule } from 'typescript';
import { collectBootGarbage } from './boot-garbage';

describe('collecting the boot garbage', () => {
  afterEach(() => jest.useRealTimers());

  it('runs a full collection after the delay and another once the process has been quiet, and nothing without an exposed gc', () => {
    jest.useFakeTimers();
    const gc = jest.fn();
    collectBootGarbage(gc, 3_000, 6_000);
    jest.advanceTimersByTime(2_999);
    expect(gc).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(gc).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(5_999);
    expect(gc).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(1);
    expect(gc).toHaveBeenCalledTimes(2);
    jest.advanceTimersByTime(60_000);
    expect(gc).toHaveBeenCalledTimes(2);
    expect(collectBootGarbage(undefined, 3_000)).toBeUndefined();
  });

  it('gives dead buffers back to the system in a node started as `npm start` starts it', () => {
    // A child with the start script's flags: 40 MB of buffers made and dropped, then the collection.
    const script = `
      const module = { exports: {} }; new Function('exports', 'module', ${JSON.stringify(compiled())})(module.exports, module);
      const { collectBootGarbage } = module.exports;
      let junk = Array.from({ length: 40 }, () => Buffer.alloc(1 << 20, 1)); junk = null;
      const before = process.memoryUsage().arrayBuffers;
      collectBootGarbage(undefined, 10);
      setTimeout(() => console.log(JSON.stringify({ before, after: process.memoryUsage().arrayBuffers })), 200);`;
    const r = spawnSync(process.execPath, [...startFlags(), '-e', script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const { before, after } = JSON.parse(r.stdout) as { before: number; after: number };
    expect(before).toBeGreaterThan(40e6);
    expect(after).toBeLessThan(before - 35e6);
  });

  it('gives the young generation back once the process has been quiet, which the first collection cannot', () => {
    // A child with the start script's flags: a burst of allocation grows the young generation
    // to its full size (as the boot does); then the two collections.
    const script = `
      const module = { exports: {} }; new Function('exports', 'module', ${JSON.stringify(compiled())})(module.exports, module);
      const { collectBootGarbage } = module.exports;
      const v8 = require('v8');
      const young = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
      let keep = [];
      const end = Date.now() + 800;
      while (Date.now() < end) { keep.push(new Array(64).fill({ a: Math.random() })); if (keep.length > 20000) keep = []; }
      keep = null;
      const sizes = { burst: young() };
      collectBootGarbage(undefined, 10, 5_500);
      setTimeout(() => (sizes.first = young()), 100);
      setTimeout(() => console.log(JSON.stringify({ ...sizes, second: young() })), 5_700);`;
    const r = spawnSync(process.execPath, [...startFlags(), '-e', script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const sizes = JSON.parse(r.stdout) as { burst: number; first: number; second: number };
    expect(sizes.burst).toBeGreaterThanOrEqual(16 * 2 ** 20);
    expect(sizes.first).toBe(sizes.burst);
    expect(sizes.second).toBeLessThanOrEqual(sizes.burst / 4);
  }, 20_000);
});

/** boot-garbage.ts as CommonJS, to run in a child. */
function compiled(): string {
  return transpileModule(readFileSync(join(__dirname, 'boot-garbage.ts'), 'utf8'), {
    compilerOptions: { module: ModuleKind.CommonJS },
  }).outputText;
}

/** The node flags `npm start` runs dist/main.js with. */
function startFlags(): string[] {
  return /node ((?:--\S+ )+)dist\/main\.js/
    .exec(
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      (require('../../../package.json') as { scripts: { start: string } }).scripts.start,
    )![1]
    .trim()
    .split(' ');
}
