import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The event side: accounts and their API keys, access requests for live delivery, webhook
 * endpoints, and the outbox — one `event` row per event and one `delivery` row per endpoint
 * it goes to, written in the transaction that caused them, with one `delivery_attempt` row
 * per try. The database is the truth; queue jobs only wake workers.
 */
export class CreateEventSideTables1763770003000 implements MigrationInterface {
  name = 'CreateEventSideTables1763770003000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE account (
        id                   text        PRIMARY KEY,
        email                text        NOT NULL,
        created_at           timestamptz NOT NULL,
        -- set when an operator approves an access request: live events are sent from then on
        live_delivery_since  timestamptz
      );

      -- The key itself is never stored: its SHA-256 and a short prefix to find the row by.
      CREATE TABLE api_key (
        id           text        PRIMARY KEY,
        account_id   text        NOT NULL REFERENCES account (id) ON DELETE CASCADE,
        name         text,
        prefix       text        NOT NULL UNIQUE,
        key_hash     text        NOT NULL,
        created_at   timestamptz NOT NULL,
        last_used_at timestamptz,
        revoked_at   timestamptz
      );
      CREATE INDEX api_key_account ON api_key (account_id, created_at);

      CREATE TABLE access_request (
        id              text        PRIMARY KEY,
        account_id      text        NOT NULL REFERENCES account (id) ON DELETE CASCADE,
        countries       text[]      NOT NULL,
        monthly_volume  integer     NOT NULL,
        events          text[]      NOT NULL,
        use_case        text        NOT NULL,
        state           text        NOT NULL CHECK (state IN ('pending', 'approved', 'rejected')),
        created_at      timestamptz NOT NULL,
        decided_at      timestamptz,
        decision_reason text
      );
      CREATE INDEX access_request_account ON access_request (account_id, created_at DESC);
      CREATE INDEX access_request_state ON access_request (state, created_at);
      -- at most one request waiting for a decision per account
      CREATE UNIQUE INDEX access_request_one_pending ON access_request (account_id) WHERE state = 'pending';

      CREATE TABLE webhook_endpoint (
        id                         text        PRIMARY KEY,
        account_id                 text        NOT NULL REFERENCES account (id) ON DELETE CASCADE,
        url                        text        NOT NULL,
        description                text,
        events                     text[]      NOT NULL,
        enabled                    boolean     NOT NULL DEFAULT true,
        disabled_at                timestamptz,
        disabled_reason            text,
        -- start of an unbroken run of failed attempts (cleared by any success)
        failing_since              timestamptz,
        secret                     text        NOT NULL,
        previous_secret            text,
        previous_secret_expires_at timestamptz,
        created_at                 timestamptz NOT NULL,
        updated_at                 timestamptz NOT NULL
      );
      CREATE INDEX webhook_endpoint_account ON webhook_endpoint (account_id, created_at);

      CREATE TABLE event (
        id         text        PRIMARY KEY,
        account_id text        NOT NULL REFERENCES account (id) ON DELETE CASCADE,
        kind       text        NOT NULL,
        is_test    boolean     NOT NULL,
        -- the envelope exactly as sent (and signed): every attempt sends these bytes
        body       text        NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX event_account_created ON event (account_id, created_at DESC, id DESC);
      CREATE INDEX event_account_test ON event (account_id, created_at) WHERE is_test;

      CREATE TABLE delivery (
        id              text        PRIMARY KEY,
        event_id        text        NOT NULL REFERENCES event (id) ON DELETE CASCADE,
        endpoint_id     text        NOT NULL REFERENCES webhook_endpoint (id) ON DELETE CASCADE,
        account_id      text        NOT NULL,
        -- webhook-id: one per event and endpoint, the same on every attempt
        message_id      text        NOT NULL UNIQUE,
        is_test         boolean     NOT NULL,
        state           text        NOT NULL CHECK (state IN ('pending', 'succeeded', 'failed', 'held')),
        attempt_count   integer     NOT NULL DEFAULT 0,
        max_attempts    integer     NOT NULL,
        next_attempt_at timestamptz,
        -- lease of the attempt in flight: nobody else attempts before it ends
        locked_until    timestamptz,
        created_at      timestamptz NOT NULL,
        last_attempt_at timestamptz,
        completed_at    timestamptz,
        last_error      text,
        CONSTRAINT delivery_one_per_endpoint UNIQUE (event_id, endpoint_id)
      );
      CREATE INDEX delivery_endpoint_created ON delivery (endpoint_id, created_at DESC, id DESC);
      CREATE INDEX delivery_due ON delivery (next_attempt_at) WHERE state = 'pending';
      CREATE INDEX delivery_endpoint_due ON delivery (endpoint_id, next_attempt_at, id) WHERE state = 'pending';
      CREATE INDEX delivery_endpoint_leased ON delivery (endpoint_id, locked_until) WHERE state = 'pending' AND locked_until IS NOT NULL;

      CREATE TABLE delivery_attempt (
        id                bigserial   PRIMARY KEY,
        delivery_id       text        NOT NULL REFERENCES delivery (id) ON DELETE CASCADE,
        attempt_number    integer     NOT NULL,
        url               text        NOT NULL,
        request_headers   text        NOT NULL, -- JSON, in the order sent
        started_at        timestamptz NOT NULL,
        finished_at       timestamptz,
        duration_ms       integer,
        response_status   integer,
        response_body     text,
        error_class       text,
        error_message     text,
        CONSTRAINT delivery_attempt_once UNIQUE (delivery_id, attempt_number)
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE delivery_attempt; DROP TABLE delivery; DROP TABLE event; DROP TABLE webhook_endpoint;
      DROP TABLE access_request; DROP TABLE api_key; DROP TABLE account;
    `);
  }
}
