import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 27: officer and filing events, per-company sequence numbers, the end of an outage.
 * - `event_sequence`: the last `data.sequence` given to an account's events about one company
 *   (test events count apart), bumped in the outbox transaction that writes the event;
 * - `event.entity_id` and `event.sequence`, so that the events list can be read by company;
 * - `company_snapshot.officers`: the officer list as last read (null: never read);
 * - `stream_resource`: the officer appointments and filings a change stream has sent, by the
 *   register's own resource id, so that a resource sent again is not a change;
 * - `register_state.unreadable_since`: when the register stopped being readable (null while it is).
 */
export class OfficerFilingEventsAndSequences1763900000000 implements MigrationInterface {
  name = 'OfficerFilingEventsAndSequences1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE event_sequence (
        account_id text NOT NULL REFERENCES account (id) ON DELETE CASCADE,
        entity_id text NOT NULL,
        is_test boolean NOT NULL,
        last_sequence integer NOT NULL,
        PRIMARY KEY (account_id, entity_id, is_test)
      );
      ALTER TABLE event ADD COLUMN entity_id text, ADD COLUMN sequence integer;
      CREATE INDEX event_account_entity_idx ON event (account_id, entity_id, sequence) WHERE entity_id IS NOT NULL;
      ALTER TABLE company_snapshot ADD COLUMN officers jsonb;
      CREATE TABLE stream_resource (
        entity_id text NOT NULL,
        kind text NOT NULL,
        resource_id text NOT NULL,
        fingerprint text NOT NULL,
        body jsonb NOT NULL,
        seen_at timestamptz NOT NULL,
        PRIMARY KEY (entity_id, kind, resource_id)
      );
      ALTER TABLE register_state ADD COLUMN unreadable_since timestamptz;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE register_state DROP COLUMN unreadable_since;
      DROP TABLE stream_resource;
      ALTER TABLE company_snapshot DROP COLUMN officers;
      DROP INDEX event_account_entity_idx;
      ALTER TABLE event DROP COLUMN entity_id, DROP COLUMN sequence;
      DROP TABLE event_sequence;
    `);
  }
}
