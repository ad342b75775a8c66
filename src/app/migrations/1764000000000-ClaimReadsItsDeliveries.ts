import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A claim in one round trip instead of two: claim_deliveries picks the endpoint's due
 * deliveries itself, under the endpoint's row lock, and returns everything the worker needs to
 * sign and send them (the endpoint's url and sealed secrets, the event's body). Before, a
 * worker read candidates (and a few claims' worth more, with their bodies), signed them, and
 * handed the signed headers to the claim to log — two round trips and four rows read for each
 * delivery sent. Now the attempt is logged at its claim without headers and its outcome writes
 * them with the rest: an attempt whose worker died mid-request keeps what the claim wrote (url,
 * start) and is recorded as abandoned by the next claim, as before, without headers (its
 * webhook-id is the delivery's, its webhook-timestamp its start).
 *
 * A disabled endpoint's due deliveries fail here, as the worker did before claiming.
 * `p_delivery`: claim this one delivery only (the simulator's send), on its endpoint.
 *
 * The previous claim_deliveries (13 arguments) stays, for a rolling upgrade: workers of the
 * previous version keep claiming (and logging their headers at the claim) until they are
 * replaced; a later migration may drop it.
 */
export class ClaimReadsItsDeliveries1764000000000 implements MigrationInterface {
  name = 'ClaimReadsItsDeliveries1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE delivery_attempt ALTER COLUMN request_headers DROP NOT NULL;
      CREATE FUNCTION ${CLAIM_FUNCTION} LANGUAGE plpgsql AS $fn$${PER_ENDPOINT_CLAIM}$fn$
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP FUNCTION claim_deliveries(timestamptz, timestamptz, integer, text[], integer[], boolean[], text[], boolean, boolean[], text);
      UPDATE delivery_attempt SET request_headers = '{}' WHERE request_headers IS NULL;
      ALTER TABLE delivery_attempt ALTER COLUMN request_headers SET NOT NULL;
    `);
  }
}

/** claim_deliveries' arguments and rows (kept by later bodies: workers call it unchanged). */
export const CLAIM_FUNCTION = `
      claim_deliveries(
        p_now timestamptz, p_lease_until timestamptz, p_limit integer,
        p_endpoints text[], p_max integer[], p_skip_locked boolean[],
        p_answered text[], p_async_commit boolean, p_circuit boolean[], p_delivery text
      ) RETURNS TABLE (
        c_id text, c_attempt integer, c_max_attempts integer, c_endpoint_id text, c_url text, c_secret text,
        c_previous_secret text, c_previous_secret_expires_at timestamptz, c_account_id text, c_event_id text,
        c_event_created_at timestamptz, c_message_id text, c_is_test boolean, c_kind text, c_body text
      )`;

/** The body this migration gives claim_deliveries: a loop over the endpoints, five statements each. */
export const PER_ENDPOINT_CLAIM = `
      DECLARE
        i integer;
        in_flight integer;
        v_limit integer;
        w record;
      BEGIN
        IF p_async_commit THEN
          PERFORM set_config('synchronous_commit', 'off', true);
        END IF;
        IF p_delivery IS NOT NULL THEN
          p_endpoints := ARRAY(SELECT d.endpoint_id FROM delivery d WHERE d.id = p_delivery);
          p_max := ARRAY[1];
        END IF;
        FOR i IN 1 .. coalesce(array_length(p_endpoints, 1), 0) LOOP
          IF p_skip_locked[i] THEN
            SELECT x.id, x.enabled, x.url, x.secret, x.previous_secret, x.previous_secret_expires_at,
                   x.circuit_opened, x.circuit_open_until, x.circuit_failures
              INTO w FROM webhook_endpoint x WHERE x.id = p_endpoints[i] FOR NO KEY UPDATE SKIP LOCKED;
          ELSE
            SELECT x.id, x.enabled, x.url, x.secret, x.previous_secret, x.previous_secret_expires_at,
                   x.circuit_opened, x.circuit_open_until, x.circuit_failures
              INTO w FROM webhook_endpoint x WHERE x.id = p_endpoints[i] FOR NO KEY UPDATE;
          END IF;
          CONTINUE WHEN NOT FOUND;
          IF NOT w.enabled THEN
            -- Nothing is sent to a disabled endpoint: its deliveries fail.
            UPDATE delivery d SET state = 'failed', next_attempt_at = NULL, completed_at = p_now, last_error = 'the endpoint is disabled'
            WHERE d.endpoint_id = w.id AND d.state = 'pending' AND (d.locked_until IS NULL OR d.locked_until <= p_now)
              AND (p_delivery IS NULL OR d.id = p_delivery);
            CONTINUE;
          END IF;
          -- Failing (or half-open): one request at a time until one succeeds.
          v_limit := CASE WHEN w.circuit_failures > 0 THEN 1 ELSE p_limit END;
          IF coalesce(p_circuit[i], true) THEN
            -- Open: nothing is attempted. Half-open: one probe at a time.
            CONTINUE WHEN w.circuit_open_until > p_now;
            IF w.circuit_opened > 0 THEN
              v_limit := 1;
            END IF;
          END IF;
          SELECT count(*)::integer INTO in_flight FROM delivery d
          WHERE d.endpoint_id = w.id AND d.state = 'pending' AND d.locked_until > p_now AND d.id <> ALL (p_answered);
          CONTINUE WHEN in_flight >= v_limit;
          RETURN QUERY
            WITH target AS (
              SELECT d.id FROM delivery d
              WHERE d.endpoint_id = w.id AND d.state = 'pending'
                AND d.next_attempt_at <= p_now AND (d.locked_until IS NULL OR d.locked_until <= p_now)
                AND (p_delivery IS NULL OR d.id = p_delivery)
              ORDER BY d.next_attempt_at, d.id
              LIMIT GREATEST(0, LEAST(p_max[i], v_limit - in_flight))
            ), claimed AS (
              UPDATE delivery d SET attempt_count = d.attempt_count + 1, locked_until = p_lease_until, last_attempt_at = p_now
              FROM target WHERE d.id = target.id AND d.state = 'pending' AND (d.locked_until IS NULL OR d.locked_until <= p_now)
              RETURNING d.id, d.attempt_count, d.max_attempts, d.account_id, d.event_id, d.message_id, d.is_test, d.next_attempt_at
            ), abandoned AS (
              UPDATE delivery_attempt a SET finished_at = p_now, error_class = 'abandoned',
                error_message = 'no outcome was recorded: the worker stopped during the attempt and its lease expired'
              WHERE a.delivery_id IN (SELECT c.id FROM claimed c) AND a.finished_at IS NULL
            ), logged AS (
              INSERT INTO delivery_attempt (delivery_id, attempt_number, url, started_at)
              SELECT c.id, c.attempt_count, w.url, p_now FROM claimed c
            )
            SELECT c.id, c.attempt_count, c.max_attempts, w.id, w.url, w.secret, w.previous_secret, w.previous_secret_expires_at,
                   c.account_id, c.event_id, ev.created_at, c.message_id, c.is_test, ev.kind, ev.body
            FROM claimed c JOIN event ev ON ev.id = c.event_id
            ORDER BY c.next_attempt_at, c.id;
        END LOOP;
      END
      `;
