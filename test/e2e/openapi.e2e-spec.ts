import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COUNTRY_CODES } from '../../src/registers/registers';
import { servedOpenApiDocument } from '../support/openapi-document';
import { MODE } from '../support/test-app';

jest.setTimeout(120_000);

const BIN = join(__dirname, '..', '..', 'node_modules', '.bin');

// The document does not depend on the backends: linted once, with the embedded suite.
const suite = MODE === 'embedded' ? describe : describe.skip;

/** The document the app serves, linted by the real tools as a client's CI would. */
suite('the OpenAPI document passes strict tools', () => {
  let dir: string;
  let file: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rl-openapi-'));
    file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(await servedOpenApiDocument(), null, 2));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('Redocly, recommended rules: no error', () => {
    const r = spawnSync(join(BIN, 'redocly'), ['lint', '--extends', 'recommended', '--format', 'json', file], {
      encoding: 'utf8',
      cwd: dir,
    });
    const report = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as {
      totals: { errors: number };
      problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }>;
    };
    expect(
      report.problems
        .filter((p) => p.severity === 'error')
        .map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`),
    ).toEqual([]);
    expect(report.totals.errors).toBe(0);
    expect(r.status).toBe(0);
  });

  it('Spectral, spectral:oas: no error', () => {
    const ruleset = join(dir, '.spectral.yaml');
    writeFileSync(ruleset, 'extends: ["spectral:oas"]\n');
    const r = spawnSync(
      join(BIN, 'spectral'),
      ['lint', file, '--ruleset', ruleset, '--format', 'json', '--fail-severity', 'error', '--quiet'],
      { encoding: 'utf8', cwd: dir },
    );
    const results = JSON.parse(r.stdout || '[]') as Array<{
      code: string;
      severity: number;
      message: string;
      path: string[];
    }>;
    expect(results.filter((p) => p.severity === 0).map((p) => `${p.code} ${p.path.join('.')}: ${p.message}`)).toEqual(
      [],
    );
    expect(r.status).toBe(0);
  });

  it('openapi-typescript gives a client typed parameters and enums', () => {
    const out = join(dir, 'types.ts');
    const r = spawnSync(join(BIN, 'openapi-typescript'), [file, '-o', out], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    const types = readFileSync(out, 'utf8');
    const search = types.slice(types.indexOf('SearchController_find: {'));
    const query = search.slice(search.indexOf('query: {'), search.indexOf('};', search.indexOf('query: {')));
    expect(query).toContain('q: string;');
    expect(query).toContain(`country: ${COUNTRY_CODES.map((cc) => `"${cc}"`).join(' | ')};`);
    const registers = types.slice(types.indexOf('RegistersController_list: {'));
    expect(registers).toMatch(/provides\?: \("officers" \| "filings" \| "monitoring"\)\[\];/);
    expect(registers).toMatch(/status\?: \("live" \| "degraded" \| "paused"\)\[\];/);
    expect(types).toMatch(/lastProbe: components\["schemas"\]\["LastProbeDto"\] \| \(?null\)?;/);
    expect(types).not.toMatch(/^\s+(q|country|status|provides|registrationNumber|code)\??: unknown;/m);
  });
});
