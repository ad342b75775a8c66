import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureText } from '../../../test/support/dataset-fixtures';
import { adminSetup } from '../../app/config';
import { COUNTRY_CODES, countryList } from '../../registers/registers';
import { runDatasetImportCli } from './dataset-import-cli';

jest.setTimeout(60_000);

async function cli(
  argv: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runDatasetImportCli(
    argv,
    env,
    { out: (l) => out.push(l), err: (l) => err.push(l), isTTY: false },
    adminSetup,
  );
  return { code, out, err };
}

describe('dataset:import command', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'rl-cli-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    [['--file', 'x.csv'], 2, `dataset:import: --country is required (${countryList()})`],
    [['--country', 'NO'], 2, 'dataset:import: --file is required'],
    [
      ['--country', 'SE', '--file', 'x'],
      2,
      `dataset:import: unknown country "SE": the dataset covers ${COUNTRY_CODES.join(', ')}`,
    ],
    [
      ['--country', 'CZ', '--file', 'x'],
      2,
      expect.stringMatching(/^dataset:import: CZ cannot be imported: ARES publishes no bulk file: /),
    ],
    [['--country', 'AU', '--file', 'x'], 1, 'dataset:import: file not found: x'],
    [
      ['--country', 'GB', '--format', 'enheter-json', '--file', 'x'],
      2,
      'dataset:import: unknown format "enheter-json" for GB: use basiccompanydata-csv',
    ],
    [
      ['--country', 'GB', '--file', 'x', '--produced-at', '2024-02-30'],
      2,
      'dataset:import: --produced-at must be a date YYYY-MM-DD, not "2024-02-30"',
    ],
    [['--country', 'GB', '--file', 'x', '--colour'], 2, "dataset:import: Unknown option '--colour'"],
    [
      ['--country', 'GB', '--file', '/nonexistent/BasicCompanyData.csv'],
      1,
      'dataset:import: file not found: /nonexistent/BasicCompanyData.csv',
    ],
  ])('refuses %j with exit code %i and one readable line', async (argv, code, line) => {
    const r = await cli(argv as string[]);
    expect(r.code).toBe(code);
    expect(r.err[0]).toEqual(line);
    expect(r.err.join('\n')).not.toMatch(/\n\s+at /);
  });

  it('imports into the embedded database of DATA_DIR, and fails readably on a file of another format', async () => {
    const file = join(dir, 'BasicCompanyDataAsOneFile-2024-05-01.csv');
    writeFileSync(file, fixtureText('registers/gb/ch-bulk-basiccompanydata-sample.csv'));
    const env = { DATA_DIR: join(dir, 'data') };
    const ok = await cli(['--country', 'gb', '--file', file], env);
    expect(ok.err.filter((l) => !l.includes(': reading ') && !/rows \(/.test(l))).toEqual([]);
    expect(ok.code).toBe(0);
    expect(ok.out.join('\n')).toContain(
      'Imported GB dataset "companies-house-basiccompanydata" (basiccompanydata-csv, produced 2024-05-01 according to the file name)',
    );
    expect(ok.out.join('\n')).toContain('upserted       3 (inserted 3, updated 0; 0 unchanged)');

    const wrong = join(dir, 'enheter.json');
    writeFileSync(wrong, '[]');
    const bad = await cli(['--country', 'GB', '--file', wrong], env);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain(
      'dataset:import: not a BasicCompanyData CSV: header lacks CompanyName, CompanyNumber, CompanyStatus, IncorporationDate',
    );
  });

  it('reports a bad configuration in one line', async () => {
    const file = join(dir, 'x.csv');
    writeFileSync(file, 'a');
    const r = await cli(['--country', 'GB', '--file', file], { DATABASE_URL: 'mysql://nope' });
    expect(r.code).toBe(1);
    expect(r.err[0]).toBe('dataset:import: Invalid configuration: - DATABASE_URL: must be a postgres:// URL');
  });
});
