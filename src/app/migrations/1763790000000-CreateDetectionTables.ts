import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Change detection: one snapshot per company (not per watch), the watches of each account,
 * and one cursor per register feed. A snapshot's lease (token and expiry) is what keeps two
 * workers from checking one company at once; a feed's lease keeps one reader per feed.
 */
export class CreateDetectionTables1763790000000 implements MigrationInterface {
  name = 'CreateDetectionTables1763790000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE company_snapshot (
        entity_id           text        PRIMARY KEY,
        country             char(2)     NOT NULL,
        registration_number text        NOT NULL,
        -- the four watched fields as the register words them, and their comparison keys
        name                text,
        status              text,
        address             text,
        legal_form          text,
        name_key            text,
        status_key          text,
        address_key         text,
        legal_form_key      text,
        -- provenance of the last official read the values come from
        source_mode         text,
        source_url          text,
        retrieved_at        timestamptz,
        -- null while the baseline is pending (no official read yet)
        baseline_at         timestamptz,
        checked_at          timestamptz,
        check_outcome       text,
        check_detail        text,
        next_check_at       timestamptz NOT NULL,
        -- a feed named this company: the next check reads it whatever the mode
        read_requested_at   timestamptz,
        lease_token         text,
        lease_until         timestamptz,
        created_at          timestamptz NOT NULL,
        CONSTRAINT company_snapshot_one_per_company UNIQUE (country, registration_number)
      );
      CREATE INDEX company_snapshot_due ON company_snapshot (country, next_check_at);
      CREATE INDEX company_snapshot_read_requested ON company_snapshot (country) WHERE read_requested_at IS NOT NULL;
      CREATE INDEX company_snapshot_leased ON company_snapshot (country, lease_until) WHERE lease_token IS NOT NULL;

      CREATE TABLE watch (
        id                   text        PRIMARY KEY,
        account_id           text        NOT NULL,
        entity_id            text        NOT NULL REFERENCES company_snapshot (entity_id),
        country              char(2)     NOT NULL,
        registration_number  text        NOT NULL,
        notify_no_change     boolean     NOT NULL DEFAULT false,
        baseline_at          timestamptz,
        baseline_source_mode text,
        baseline_source_url  text,
        created_at           timestamptz NOT NULL,
        CONSTRAINT watch_one_per_account_company UNIQUE (account_id, entity_id)
      );
      CREATE INDEX watch_entity ON watch (entity_id);
      CREATE INDEX watch_account_page ON watch (account_id, created_at, id);
      CREATE INDEX watch_country_account ON watch (country, account_id);

      CREATE TABLE feed_cursor (
        feed        text        PRIMARY KEY,
        country     char(2)     NOT NULL,
        cursor      text,
        -- the last time the feed was read successfully up to its end
        caught_up_at timestamptz,
        updated_at  timestamptz NOT NULL,
        lease_owner text,
        lease_until timestamptz
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE feed_cursor; DROP TABLE watch; DROP TABLE company_snapshot;`);
  }
}
