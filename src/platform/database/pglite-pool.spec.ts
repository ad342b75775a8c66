import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointPolicy, createPGlitePoolClass, openPGlite } from './pglite-pool';

const MB = 1024 * 1024;

function walMb(dataDir: string): number {
  const dir = join(dataDir, 'pg_wal');
  return readdirSync(dir).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0) / MB;
}

/** Writes about `rounds` × 10 MB of WAL through the pool, pausing between statements as an import does between batches. */
async function writeWal(
  policy: CheckpointPolicy,
  rounds: number,
): Promise<{ walMb: number; sinceCheckpointMb: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'rl-pglite-wal-'));
  const dataDir = join(dir, 'pg');
  const Pool = createPGlitePoolClass(openPGlite(dataDir), undefined, policy);
  const pool = new Pool();
  try {
    await pool.query('CREATE TABLE filler (id serial PRIMARY KEY, v text)');
    for (let i = 0; i < rounds; i++) {
      await pool.query(`INSERT INTO filler (v) SELECT repeat(md5(g::text), 8) FROM generate_series(1, 25000) g`);
      await new Promise((r) => setTimeout(r, 150));
    }
    const { rows } = await pool.query(
      `SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), (SELECT redo_lsn FROM pg_control_checkpoint()))::float8 AS bytes`,
    );
    return { walMb: walMb(dataDir), sinceCheckpointMb: Number((rows[0] as { bytes: number }).bytes) / MB };
  } finally {
    await pool.end();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('PGlite pool checkpoints (PGlite runs no checkpointer of its own)', () => {
  jest.setTimeout(60_000);

  it('keeps pg_wal bounded while writes go on, where without checkpoints it grows with every write', async () => {
    const checkpointed = await writeWal({ everyMs: 50, walBytes: 4 * MB }, 10);
    const never = await writeWal({ everyMs: 50, walBytes: Number.POSITIVE_INFINITY }, 10);
    // About 100 MB of WAL written in each run.
    expect(never.sinceCheckpointMb).toBeGreaterThan(80);
    expect(never.walMb).toBeGreaterThan(80);
    // Checkpointed after each round: the WAL since the last checkpoint is at most a round's, and
    // the recycled segments are what min_wal_size and one round keep.
    expect(checkpointed.sinceCheckpointMb).toBeLessThan(20);
    expect(checkpointed.walMb).toBeLessThan(never.walMb / 2);
  });
});
