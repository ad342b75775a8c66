import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { importSample } from '../support/datasets';
import { MODE, startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(120_000);

/*
 * An import killed mid-way, on the embedded database (a data directory on disk, opened again
 * by the next start). On Postgres the same rule holds for an import whose heartbeat stopped
 * (src/dataset/import/dataset-importer.spec.ts).
 */
(MODE === 'embedded' ? describe : describe.skip)('an import killed mid-way', () => {
  let dir: string;
  let app: TestApp | undefined;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'rl-interrupted-'))));
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const env = () => ({ DATA_DIR: dir, REGISTER_NO_PAUSED: 'true' });

  it('is recorded as interrupted at the next start, the warning says the dataset is partial, and a re-run completes it', async () => {
    app = await startTestApp({ env: env() });
    await importSample(app, 'NO');
    // What a process killed during its import leaves: the log row at running, part of the rows.
    const ds = app.get(DataSource);
    await ds.query(`UPDATE dataset_import SET status = 'running', finished_at = NULL, rows_read = 3`);
    await ds.query(`DELETE FROM company WHERE country = 'NO' AND name <> 'SESAM STASJON'`);
    await app.close();

    app = await startTestApp({ env: env() });
    const [log] = (await app.get(DataSource).query(`SELECT status, rows_read FROM dataset_import`)) as Array<{
      status: string;
      rows_read: number;
    }>;
    expect(log).toEqual({ status: 'interrupted', rows_read: 3 });
    const res = await fetch(`${app.url}/api/public/v1/search?q=sesam&country=NO`);
    const body = (await res.json()) as { results: Array<{ name: string }>; warning: string };
    expect(body.results.map((r) => r.name)).toEqual(['SESAM STASJON']);
    expect(body.warning).toMatch(
      /Its latest import \(enheter\.json\.gz, started .* UTC\) was interrupted after 3 records: the dataset is partial until that import is run again\./,
    );

    const again = await importSample(app, 'NO');
    expect(again.inserted).toBeGreaterThan(0);
    const logs = (await app.get(DataSource).query(`SELECT status FROM dataset_import ORDER BY id`)) as Array<{
      status: string;
    }>;
    expect(logs.map((l) => l.status)).toEqual(['interrupted', 'done']);
    await app.close();
    app = await startTestApp({ env: env() });
    const after = (await (await fetch(`${app.url}/api/public/v1/search?q=sesam&country=NO`)).json()) as {
      results: unknown[];
      warning: string;
    };
    expect(after.results.length).toBeGreaterThan(1);
    expect(after.warning).not.toMatch(/interrupted/);
  });
});
