import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

export interface Started {
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

/** Starts a compiled entry point (dist/…) as its own OS process, as an operator would. */
export function startProcess(entry: string, args: string[], env: Record<string, string>): Started {
  const child = spawn(process.execPath, [join(ROOT, 'dist', entry), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return {
    child,
    output: () => out,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

/** Resolves when `url` answers 200, or rejects with the process output after `timeoutMs`. */
export async function waitForHttp(url: string, started: Started, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null) throw new Error(`process exited (${started.child.exitCode}):\n${started.output()}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${started.output()}`);
}

/** Runs an entry point to completion. */
export function runProcess(entry: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const p = startProcess(entry, args, env);
  return new Promise((resolve) => p.child.once('exit', (code) => resolve({ code, output: p.output() })));
}
