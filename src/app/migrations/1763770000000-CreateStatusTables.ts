import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateStatusTables1763770000000 implements MigrationInterface {
  name = 'CreateStatusTables1763770000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE probe (
        id            bigserial PRIMARY KEY,
        country       char(2)     NOT NULL,
        slot_start    timestamptz NOT NULL,
        started_at    timestamptz NOT NULL,
        finished_at   timestamptz,
        ok            boolean,
        latency_ms    integer,
        http_status   integer,
        error_class   text,
        error_message text,
        CONSTRAINT probe_one_per_slot UNIQUE (country, slot_start)
      );
      CREATE INDEX probe_country_slot ON probe (country, slot_start DESC);

      CREATE TABLE register_state (
        country               char(2)     PRIMARY KEY,
        status                text        NOT NULL CHECK (status IN ('live', 'degraded', 'paused')),
        reason                text,
        changed_at            timestamptz NOT NULL,
        consecutive_failures  integer     NOT NULL DEFAULT 0,
        consecutive_successes integer     NOT NULL DEFAULT 0
      );

      CREATE TABLE register_status_transition (
        id          bigserial PRIMARY KEY,
        country     char(2)     NOT NULL,
        from_status text,
        to_status   text        NOT NULL,
        reason      text,
        at          timestamptz NOT NULL
      );
      CREATE INDEX register_status_transition_country_at ON register_status_transition (country, at DESC);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE register_status_transition; DROP TABLE register_state; DROP TABLE probe;`);
  }
}
