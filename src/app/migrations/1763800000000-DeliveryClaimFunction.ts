import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Claiming deliveries in one round trip, for any number of endpoints at once.
 *
 * A claim must count an endpoint's attempts in flight after taking its row lock, in a
 * snapshot that sees every claim committed before the lock was granted — so, in a statement
 * after the lock's. That took a transaction of four round trips per endpoint (BEGIN, the lock,
 * the claim, COMMIT), and the statements were planned anew each time. In a function each
 * statement gets its own snapshot and its plan is cached: a worker claims for every endpoint
 * it drains with one call.
 *
 * Per endpoint, in the order given (callers sort them, so two claims never wait on each
 * other's locks in a cycle): lock the endpoint row — only if it is enabled and still has the
 * URL and secret the requests were signed for; SKIP LOCKED where asked — count the attempts
 * in flight, claim the oldest of the given candidates that are still due and unleased (no
 * more than the free slots and the endpoint's max), log each attempt with the request headers
 * given for it, and record an unfinished earlier attempt of a claimed delivery as abandoned.
 * The lock is FOR NO KEY UPDATE: claims take turns as before, but it does not conflict with
 * the KEY SHARE lock a publisher's INSERT of deliveries takes on each of their endpoints (the
 * foreign key) — with FOR UPDATE, a claim holding two endpoints and a publish inserting for
 * both in the other order deadlocked.
 * `p_answered`: the caller's attempts whose request has been answered but whose outcome is not
 * yet written: still leased (nobody else may claim them), no longer in flight.
 * `p_async_commit`: commit without waiting for the disk (see ASYNC_COMMIT in delivery-store.ts).
 */
export class DeliveryClaimFunction1763800000000 implements MigrationInterface {
  name = 'DeliveryClaimFunction1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION claim_deliveries(
        p_now timestamptz, p_lease_until timestamptz, p_limit integer,
        p_endpoints text[], p_max integer[], p_skip_locked boolean[], p_urls text[], p_secrets text[],
        p_ids text[], p_headers text[], p_answered text[], p_async_commit boolean
      ) RETURNS TABLE (claimed_id text, claimed_attempt integer, claimed_max_attempts integer)
      LANGUAGE plpgsql AS $fn$
      DECLARE
        i integer;
        in_flight integer;
      BEGIN
        IF p_async_commit THEN
          PERFORM set_config('synchronous_commit', 'off', true);
        END IF;
        FOR i IN 1 .. coalesce(array_length(p_endpoints, 1), 0) LOOP
          IF p_skip_locked[i] THEN
            PERFORM 1 FROM webhook_endpoint w
            WHERE w.id = p_endpoints[i] AND w.enabled AND w.url = p_urls[i] AND w.secret = p_secrets[i]
            FOR NO KEY UPDATE SKIP LOCKED;
          ELSE
            PERFORM 1 FROM webhook_endpoint w
            WHERE w.id = p_endpoints[i] AND w.enabled AND w.url = p_urls[i] AND w.secret = p_secrets[i]
            FOR NO KEY UPDATE;
          END IF;
          CONTINUE WHEN NOT FOUND;
          SELECT count(*)::integer INTO in_flight FROM delivery d
          WHERE d.endpoint_id = p_endpoints[i] AND d.state = 'pending' AND d.locked_until > p_now AND d.id <> ALL (p_answered);
          RETURN QUERY
            WITH target AS (
              SELECT d.id FROM delivery d
              WHERE d.id = ANY (p_ids) AND d.endpoint_id = p_endpoints[i] AND d.state = 'pending'
                AND d.next_attempt_at <= p_now AND (d.locked_until IS NULL OR d.locked_until <= p_now)
              ORDER BY d.next_attempt_at, d.id
              LIMIT GREATEST(0, LEAST(p_max[i], p_limit - in_flight))
            ), claimed AS (
              UPDATE delivery d SET attempt_count = d.attempt_count + 1, locked_until = p_lease_until, last_attempt_at = p_now
              FROM target WHERE d.id = target.id
              RETURNING d.id, d.attempt_count, d.max_attempts
            ), abandoned AS (
              UPDATE delivery_attempt a SET finished_at = p_now, error_class = 'abandoned',
                error_message = 'no outcome was recorded: the worker stopped during the attempt and its lease expired'
              WHERE a.delivery_id IN (SELECT c.id FROM claimed c) AND a.finished_at IS NULL
            ), logged AS (
              INSERT INTO delivery_attempt (delivery_id, attempt_number, url, request_headers, started_at)
              SELECT c.id, c.attempt_count, p_urls[i], h.headers, p_now
              FROM claimed c JOIN unnest(p_ids, p_headers) AS h (id, headers) ON h.id = c.id
            )
            SELECT c.id, c.attempt_count, c.max_attempts FROM claimed c;
        END LOOP;
      END
      $fn$
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `DROP FUNCTION claim_deliveries(timestamptz, timestamptz, integer, text[], integer[], boolean[], text[], text[], text[], text[], text[], boolean)`,
    );
  }
}
