#!/usr/bin/env node
'use strict';
/*
 * The peer design of bench/delivery-scale.js, as small as it gets: one Bull job per delivery
 * ({deliveryId, url, messageId, body, secret}); take it, sign it (Standard Webhooks), POST it,
 * INSERT the attempt (autocommit). The design of the published anchor (a BullMQ job per
 * delivery, Postgres). Same receivers, same in-flight bound as the service's worker.
 *   DATABASE_URL=… REDIS_URL=… REDIS_KEY_PREFIX=… PEER_CONCURRENCY=128 TIMEOUT_MS=2000 node bench/delivery-scale-peer.js
 */
const { join } = require('node:path');
const Bull = require('bull');
const { Pool } = require('pg');
const { Agent, request } = require('undici');
const { signatureHeader } = require(join(__dirname, '../dist/events/webhooks/signing/standard-webhooks.js'));

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const agent = new Agent({ connections: 256, keepAliveTimeout: 4_000 });
const queue = new Bull('peer', { redis: process.env.REDIS_URL, prefix: process.env.REDIS_KEY_PREFIX });
const timeoutMs = Number(process.env.TIMEOUT_MS ?? 2000);

void queue.process(Number(process.env.PEER_CONCURRENCY ?? 128), async (job) => {
  const { deliveryId, url, messageId, body, secret } = job.data;
  const started = Date.now();
  const timestamp = Math.floor(started / 1000);
  let status = null;
  let error = null;
  try {
    const res = await request(url, {
      method: 'POST',
      dispatcher: agent,
      headers: {
        'content-type': 'application/json',
        'webhook-id': messageId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader([secret], messageId, timestamp, body),
      },
      body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    status = res.statusCode;
    await res.body.text();
  } catch (err) {
    error = err.code ?? err.message;
  }
  await pool.query(
    `INSERT INTO peer_attempt (delivery_id, status, error, duration_ms, at) VALUES ($1, $2, $3, $4, now())`,
    [deliveryId, status, error, Date.now() - started],
  );
});

process.on('SIGTERM', () => {
  void queue
    .close()
    .then(() => pool.end())
    .finally(() => process.exit(0));
});
