import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { MCP_TOOLS } from '../../src/mcp/mcp-tools';
import type { FakeRegister } from '../support/fake-register';
import { NO_SESAM_AS, startFakeNoRegister } from '../support/fake-no-register';
import { startTestApp, TestApp } from '../support/test-app';

const run = promisify(execFile);

/*
 * The MCP Inspector CLI needs Node ≥ 22.19; the service runs on Node 20. The test fetches a
 * Node 22 binary (the `node` package of the npm registry) and the Inspector into a cache
 * directory under the OS temp dir, reused across runs, and runs the Inspector with that
 * binary. Neither is a dependency of the project.
 */
const NODE_VERSION = process.env.MCP_INSPECTOR_NODE_VERSION ?? '22.23.3';
const INSPECTOR_VERSION = process.env.MCP_INSPECTOR_VERSION ?? '2.12.0';
const CACHE = join(tmpdir(), `registry-lookup-mcp-inspector-node${NODE_VERSION}-inspector${INSPECTOR_VERSION}`);
const nodeIn = (dir: string) => join(dir, 'node_modules', 'node', 'bin', 'node');
const launcherIn = (dir: string) =>
  join(dir, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
const NODE22 = nodeIn(CACHE);
const LAUNCHER = launcherIn(CACHE);

jest.setTimeout(600_000);

/** npm's own variables of the `npm run jest` around us must not steer the nested install. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
  return { ...env, ...extra };
}

const installed = (dir: string) => existsSync(nodeIn(dir)) && existsSync(launcherIn(dir));

/** Installs into a private directory, then renames it into place: a concurrent run never sees half an install. */
async function ensureInspector(): Promise<void> {
  if (installed(CACHE)) return;
  const staging = mkdtempSync(`${CACHE}.staging-`);
  try {
    await run(
      'npm',
      [
        'install',
        '--prefix',
        staging,
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--no-package-lock',
        `node@${NODE_VERSION}`,
        `@modelcontextprotocol/inspector@${INSPECTOR_VERSION}`,
      ],
      {
        env: cleanEnv(),
        cwd: staging,
        timeout: 540_000,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    if (!installed(staging))
      throw new Error(`npm installed node@${NODE_VERSION} and the Inspector incompletely in ${staging}`);
    if (!installed(CACHE)) {
      rmSync(CACHE, { recursive: true, force: true }); // a broken leftover
      renameSync(staging, CACHE);
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

describe('MCP Inspector CLI against the running app', () => {
  let fake: FakeRegister;
  let app: TestApp;
  let home: string;
  let url: string;

  async function inspector(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    try {
      const { stdout, stderr } = await run(NODE22, [LAUNCHER, '--cli', url, '--transport', 'http', ...args], {
        env: cleanEnv({ HOME: home, MCP_CATALOG_PATH: join(home, 'mcp.json'), NO_COLOR: '1', CI: '1' }),
        timeout: 120_000,
        maxBuffer: 16 * 1024 * 1024,
      });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as { code?: number; stdout?: string; stderr?: string };
      return {
        code: typeof e.code === 'number' ? e.code : -1,
        stdout: e.stdout ?? '',
        stderr: e.stderr ?? String(err),
      };
    }
  }

  beforeAll(async () => {
    await ensureInspector();
    home = mkdtempSync(join(tmpdir(), 'mcp-inspector-home-'));
    fake = await startFakeNoRegister();
    app = await startTestApp({ env: { REGISTER_NO_API_URL: fake.url } });
    url = `${app.url}/api/public/v1/mcp`;
  });
  afterAll(async () => {
    await app?.close();
    await fake?.stop();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('runs on Node 22 from the npm registry', async () => {
    const { stdout } = await run(NODE22, ['--version']);
    expect(stdout.trim()).toBe(`v${NODE_VERSION}`);
  });

  it('--method tools/list lists the five tools with their schemas, portable (--strict: no error-severity issue)', async () => {
    const result = await inspector('--method', 'tools/list', '--strict');
    // --strict exits 6 on an error-severity schema problem; warnings (nullable written as a type array) are allowed.
    expect(result.stderr).not.toMatch(/^\s*Error/m);
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as {
      tools: Array<{ name: string; inputSchema: { type: string }; outputSchema?: { type: string } }>;
    };
    expect(out.tools.map((t) => t.name)).toEqual(MCP_TOOLS.map((t) => t.name));
    for (const tool of out.tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
  });

  it('--method tools/call --tool-name search_companies answers the search with provenance', async () => {
    const result = await inspector(
      '--method',
      'tools/call',
      '--tool-name',
      'search_companies',
      '--tool-arg',
      'q=Sesam',
      '--tool-arg',
      'country=NO',
    );
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as {
      isError?: boolean;
      structuredContent: {
        count: number;
        results: Array<{ registrationNumber: string; source: { official: boolean } }>;
      };
      content: Array<{ text: string }>;
    };
    expect(out.isError).toBeFalsy();
    expect(out.structuredContent.count).toBe(2);
    expect(out.structuredContent.results[0]).toMatchObject({
      registrationNumber: NO_SESAM_AS,
      source: { official: true },
    });
    expect(out.content[0].text).toContain('SESAM AS');
  });

  it('a business failure is an isError result (the Inspector exits 5), with the contract code', async () => {
    const result = await inspector(
      '--method',
      'tools/call',
      '--tool-name',
      'search_companies',
      '--tool-arg',
      'q=Sesam',
      '--tool-arg',
      'country=SE',
    );
    expect(result.code).toBe(5);
    const out = JSON.parse(result.stdout) as { isError: boolean; content: Array<{ text: string }> };
    expect(out.isError).toBe(true);
    expect(out.content[0].text).toContain('country_not_covered');
  });
});
