import { createTestDataSource } from '../support/database';

// Starting PGlite (WASM) takes seconds on a busy 2-core machine.
jest.setTimeout(60_000);

describe('embedded database (PGlite through TypeORM)', () => {
  it('keeps concurrent transactions apart: one rolls back, the other commits', async () => {
    const { dataSource, close } = await createTestDataSource('pglite');
    try {
      await dataSource.query(`CREATE TABLE t (v text)`);
      let releaseA!: () => void;
      const aInserted = new Promise<void>((r) => (releaseA = r));
      const a = dataSource
        .transaction(async (m) => {
          await m.query(`INSERT INTO t VALUES ('a')`);
          releaseA();
          await new Promise((r) => setTimeout(r, 50));
          throw new Error('roll back A');
        })
        .catch((e: Error) => e.message);
      await aInserted;
      const b = dataSource.transaction(async (m) => {
        await m.query(`INSERT INTO t VALUES ('b')`);
      });
      expect(await a).toBe('roll back A');
      await b;
      const rows = await dataSource.query(`SELECT v FROM t ORDER BY v`);
      expect(rows).toEqual([{ v: 'b' }]);
    } finally {
      await close();
    }
  });

  it('applies every migration on an empty PGlite and finds pg_trgm working', async () => {
    const { dataSource, close } = await createTestDataSource('pglite');
    try {
      const tables = await dataSource.query(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`,
      );
      expect(tables.map((t: { table_name: string }) => t.table_name)).toEqual(
        expect.arrayContaining(['company', 'migrations', 'probe', 'register_state', 'register_status_transition']),
      );
      const [{ s }] = await dataSource.query(`SELECT similarity('equinor asa', $1) AS s`, ['equinor']);
      expect(s).toBeGreaterThan(0.5);
    } finally {
      await close();
    }
  });
});
