import { MigrationInterface, QueryRunner } from 'typeorm';
import { DeliveryClaimFunction1763800000000 } from './1763800000000-DeliveryClaimFunction';

/**
 * A circuit per endpoint, in its row so that every worker shares it and a restart keeps it:
 * `circuit_failures` counts consecutive failed attempts; past WEBHOOK_CIRCUIT_THRESHOLD the
 * circuit opens until `circuit_open_until`, and `circuit_opened` counts the openings in a row
 * (it picks the delay of WEBHOOK_CIRCUIT_BACKOFF). While open, claim_deliveries claims nothing
 * for the endpoint; once the time is up (half-open), one attempt at a time across the fleet:
 * the probe. Its success closes the circuit (both counts back to 0), its failure opens it
 * again for the next delay (delivery-outcomes.ts).
 *
 * An endpoint in a run of failures (circuit_failures > 0), closed or not, gets one request in
 * flight at a time until one succeeds: a receiver that fails or hangs does not hold
 * WEBHOOK_ENDPOINT_CONCURRENCY of the workers' request slots while its circuit fills.
 *
 * claim_deliveries gains `p_circuit`: whether each claim obeys the circuit (the simulator's
 * send, a customer testing the endpoint by hand, does not: it is a probe of its own).
 */
export class EndpointCircuit1763950000000 implements MigrationInterface {
  name = 'EndpointCircuit1763950000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE webhook_endpoint
        ADD COLUMN circuit_failures integer NOT NULL DEFAULT 0,
        ADD COLUMN circuit_opened integer NOT NULL DEFAULT 0,
        ADD COLUMN circuit_open_until timestamptz;
      DROP FUNCTION claim_deliveries(timestamptz, timestamptz, integer, text[], integer[], boolean[], text[], text[], text[], text[], text[], boolean);
      CREATE FUNCTION claim_deliveries(
        p_now timestamptz, p_lease_until timestamptz, p_limit integer,
        p_endpoints text[], p_max integer[], p_skip_locked boolean[], p_urls text[], p_secrets text[],
        p_ids text[], p_headers text[], p_answered text[], p_async_commit boolean, p_circuit boolean[]
      ) RETURNS TABLE (claimed_id text, claimed_attempt integer, claimed_max_attempts integer)
      LANGUAGE plpgsql AS $fn$
      DECLARE
        i integer;
        in_flight integer;
        v_limit integer;
        v_opened integer;
        v_failures integer;
        v_open_until timestamptz;
      BEGIN
        IF p_async_commit THEN
          PERFORM set_config('synchronous_commit', 'off', true);
        END IF;
        FOR i IN 1 .. coalesce(array_length(p_endpoints, 1), 0) LOOP
          IF p_skip_locked[i] THEN
            SELECT w.circuit_opened, w.circuit_open_until, w.circuit_failures INTO v_opened, v_open_until, v_failures FROM webhook_endpoint w
            WHERE w.id = p_endpoints[i] AND w.enabled AND w.url = p_urls[i] AND w.secret = p_secrets[i]
            FOR NO KEY UPDATE SKIP LOCKED;
          ELSE
            SELECT w.circuit_opened, w.circuit_open_until, w.circuit_failures INTO v_opened, v_open_until, v_failures FROM webhook_endpoint w
            WHERE w.id = p_endpoints[i] AND w.enabled AND w.url = p_urls[i] AND w.secret = p_secrets[i]
            FOR NO KEY UPDATE;
          END IF;
          CONTINUE WHEN NOT FOUND;
          -- Failing (or half-open): one request at a time until one succeeds.
          v_limit := CASE WHEN v_failures > 0 THEN 1 ELSE p_limit END;
          IF coalesce(p_circuit[i], true) THEN
            -- Open: nothing is attempted. Half-open: one probe at a time.
            CONTINUE WHEN v_open_until > p_now;
            IF v_opened > 0 THEN
              v_limit := 1;
            END IF;
          END IF;
          SELECT count(*)::integer INTO in_flight FROM delivery d
          WHERE d.endpoint_id = p_endpoints[i] AND d.state = 'pending' AND d.locked_until > p_now AND d.id <> ALL (p_answered);
          RETURN QUERY
            WITH target AS (
              SELECT d.id FROM delivery d
              WHERE d.id = ANY (p_ids) AND d.endpoint_id = p_endpoints[i] AND d.state = 'pending'
                AND d.next_attempt_at <= p_now AND (d.locked_until IS NULL OR d.locked_until <= p_now)
              ORDER BY d.next_attempt_at, d.id
              LIMIT GREATEST(0, LEAST(p_max[i], v_limit - in_flight))
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
      `DROP FUNCTION claim_deliveries(timestamptz, timestamptz, integer, text[], integer[], boolean[], text[], text[], text[], text[], text[], boolean, boolean[]);
       ALTER TABLE webhook_endpoint DROP COLUMN circuit_failures, DROP COLUMN circuit_opened, DROP COLUMN circuit_open_until`,
    );
    await new DeliveryClaimFunction1763800000000().up(q);
  }
}
