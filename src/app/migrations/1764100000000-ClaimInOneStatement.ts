import { MigrationInterface, QueryRunner } from 'typeorm';
import { CLAIM_FUNCTION, PER_ENDPOINT_CLAIM } from './1764000000000-ClaimReadsItsDeliveries';

/**
 * claim_deliveries without a loop over its endpoints: it locks them in two statements (those
 * whose claim waits, in id order, then those that skip a locked one) and claims for all of them
 * in one — where before each endpoint cost five statements of its own (lock, fail if disabled,
 * count in flight, claim, log). A worker's claim covers a couple of dozen endpoints at a time
 * and gets about one delivery from each, so those statements were most of what Postgres did
 * per delivery. Same arguments, same rows, same rules: a drop-in replacement, so workers of the
 * previous version keep claiming through it during a rolling upgrade.
 *
 * Deadlocks stay impossible between claims: a claim waits for endpoint locks only in its
 * first statement, which takes them in id order, and never waits in the second.
 */
export class ClaimInOneStatement1764100000000 implements MigrationInterface {
  name = 'ClaimInOneStatement1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(claimFunction(SET_BASED));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(claimFunction(PER_ENDPOINT_CLAIM));
  }
}

function claimFunction(body: string): string {
  return `CREATE OR REPLACE FUNCTION ${CLAIM_FUNCTION} LANGUAGE plpgsql AS $fn$${body}$fn$`;
}

const SET_BASED = `
  DECLARE
    v_locked text[];
  BEGIN
    IF p_async_commit THEN
      PERFORM set_config('synchronous_commit', 'off', true);
    END IF;
    IF p_delivery IS NOT NULL THEN
      p_endpoints := ARRAY(SELECT d.endpoint_id FROM delivery d WHERE d.id = p_delivery);
      p_max := ARRAY[1];
      p_skip_locked := ARRAY[false];
    END IF;
    -- The sort is below the row locks in the plan: they are taken in id order.
    v_locked := ARRAY(
      SELECT x.id FROM webhook_endpoint x
      WHERE x.id IN (SELECT r.e FROM unnest(p_endpoints, p_skip_locked) AS r(e, skip) WHERE NOT coalesce(r.skip, false))
      ORDER BY x.id FOR NO KEY UPDATE);
    IF true = ANY (p_skip_locked) THEN
      v_locked := v_locked || ARRAY(
        SELECT x.id FROM webhook_endpoint x
        WHERE x.id IN (SELECT r.e FROM unnest(p_endpoints, p_skip_locked) AS r(e, skip) WHERE r.skip)
        ORDER BY x.id FOR NO KEY UPDATE SKIP LOCKED);
    END IF;
    IF cardinality(v_locked) = 0 THEN
      RETURN;
    END IF;
    -- Nothing is sent to a disabled endpoint: its deliveries fail.
    UPDATE delivery d SET state = 'failed', next_attempt_at = NULL, completed_at = p_now, last_error = 'the endpoint is disabled'
    FROM webhook_endpoint x
    WHERE x.id = ANY (v_locked) AND NOT x.enabled AND d.endpoint_id = x.id
      AND d.state = 'pending' AND (d.locked_until IS NULL OR d.locked_until <= p_now)
      AND (p_delivery IS NULL OR d.id = p_delivery);
    -- A new statement, so a new snapshot: what the claims that held these locks before committed.
    RETURN QUERY
      WITH ep AS (
        SELECT x.id, x.url, x.secret, x.previous_secret, x.previous_secret_expires_at, r.ord, r.max,
               -- Failing (or half-open): one request at a time until one succeeds.
               CASE WHEN x.circuit_failures > 0 OR (coalesce(r.circuit, true) AND x.circuit_opened > 0) THEN 1
                    ELSE p_limit END AS lim
        FROM unnest(p_endpoints, p_max, p_circuit) WITH ORDINALITY AS r(endpoint_id, max, circuit, ord)
        JOIN webhook_endpoint x ON x.id = r.endpoint_id
        WHERE x.id = ANY (v_locked) AND x.enabled
          -- Open: nothing is attempted (unless told to ignore the circuit).
          AND NOT (coalesce(r.circuit, true) AND coalesce(x.circuit_open_until > p_now, false))
      ), room AS (
        SELECT ep.*, GREATEST(0, LEAST(ep.max, ep.lim - (
          SELECT count(*) FROM delivery d
          WHERE d.endpoint_id = ep.id AND d.state = 'pending' AND d.locked_until > p_now AND d.id <> ALL (p_answered)
        )))::integer AS take
        FROM ep
      ), target AS (
        SELECT t.id FROM room CROSS JOIN LATERAL (
          SELECT d.id FROM delivery d
          WHERE d.endpoint_id = room.id AND d.state = 'pending'
            AND d.next_attempt_at <= p_now AND (d.locked_until IS NULL OR d.locked_until <= p_now)
            AND (p_delivery IS NULL OR d.id = p_delivery)
          ORDER BY d.next_attempt_at, d.id
          LIMIT room.take
        ) t
        WHERE room.take > 0
      ), claimed AS (
        UPDATE delivery d SET attempt_count = d.attempt_count + 1, locked_until = p_lease_until, last_attempt_at = p_now
        FROM target WHERE d.id = target.id AND d.state = 'pending' AND (d.locked_until IS NULL OR d.locked_until <= p_now)
        RETURNING d.id, d.endpoint_id, d.attempt_count, d.max_attempts, d.account_id, d.event_id, d.message_id, d.is_test, d.next_attempt_at
      ), abandoned AS (
        UPDATE delivery_attempt a SET finished_at = p_now, error_class = 'abandoned',
          error_message = 'no outcome was recorded: the worker stopped during the attempt and its lease expired'
        WHERE a.delivery_id IN (SELECT c.id FROM claimed c) AND a.finished_at IS NULL
      ), logged AS (
        INSERT INTO delivery_attempt (delivery_id, attempt_number, url, started_at)
        SELECT c.id, c.attempt_count, room.url, p_now FROM claimed c JOIN room ON room.id = c.endpoint_id
      )
      SELECT c.id, c.attempt_count, c.max_attempts, room.id, room.url, room.secret, room.previous_secret,
             room.previous_secret_expires_at, c.account_id, c.event_id, ev.created_at, c.message_id, c.is_test, ev.kind, ev.body
      FROM claimed c JOIN room ON room.id = c.endpoint_id JOIN event ev ON ev.id = c.event_id
      ORDER BY room.ord, c.next_attempt_at, c.id;
  END`;
