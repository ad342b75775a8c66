import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ModuleKind, transpileModule } from 'typescript';
import { collectBootGarbage } from './boot-garbage';

describe('collecting the boot garbage', () => {
  afterEach(() => jest.useRealTimers());

  it('runs one full collection after the delay, and nothing without an exposed gc', () => {
    jest.useFakeTimers();
    const gc = jest.fn();
    collectBootGarbage(gc, 3_000);
    jest.advanceTimersByTime(2_999);
    expect(gc).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(gc).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(60_000);
    expect(gc).toHaveBeenCalledTimes(1);
    expect(collectBootGarbage(undefined, 3_000)).toBeUndefined();
  });

  it('gives dead buffers back to the system in a node started as `npm start` starts it', () => {
    // A child with the start script's flags: 40 MB of buffers made and dropped, then the collection.
    const code = transpileModule(readFileSync(join(__dirname, 'boot-garbage.ts'), 'utf8'), { compilerOptions: { module: ModuleKind.CommonJS } }).outputText;
    const script = `
      const module = { exports: {} }; new Function('exports', 'module', ${JSON.stringify(code)})(module.exports, module);
      const { collectBootGarbage } = module.exports;
      let junk = Array.from({ length: 40 }, () => Buffer.alloc(1 << 20, 1)); junk = null;
      const before = process.memoryUsage().arrayBuffers;
      collectBootGarbage(undefined, 10);
      setTimeout(() => console.log(JSON.stringify({ before, after: process.memoryUsage().arrayBuffers })), 200);`;
    const flags = /node ((?:--\S+ )+)dist\/main\.js/.exec((require('../../../package.json') as { scripts: { start: string } }).scripts.start)![1].trim().split(' ');
    const r = spawnSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const { before, after } = JSON.parse(r.stdout) as { before: number; after: number };
    expect(before).toBeGreaterThan(40e6);
    expect(after).toBeLessThan(before - 35e6);
  });
});
