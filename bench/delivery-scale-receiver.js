#!/usr/bin/env node
'use strict';
/*
 * The receivers of bench/delivery-scale.js, in one process: PORTS loopback ports (origins),
 * each endpoint a path on one of them. The path's first segment says how it answers:
 *   /ok/…    200 at once          /slow/…  200 after SLOW_MS (200)
 *   /fail/…  500 at once          /hang/…  never (until the sender gives up)
 * It notes when each webhook-id first arrived (Date.now(), the clock of the database rows it
 * is compared with) and, per endpoint and event (the body's bytes), the webhook-ids seen: an
 * event seen under two ids is a duplicate with a new id. The most requests in flight at once
 * per endpoint are kept too.
 *   GET /__count → {count: webhook-ids seen by /ok/ and /slow/ paths} (what a backlog waits for:
 *   retries to failing endpoints and repeated ids must not count); GET /__stats → {count: every
 *   request, hits: {webhookId: ms}, duplicatesWithNewId, maxInFlightPerEndpoint}; POST /__reset forgets. Prints {"ports": […]} once listening.
 */
const { createServer } = require('node:http');

const PORTS = Number(process.env.PORTS ?? 50);
const SLOW_MS = Number(process.env.SLOW_MS ?? 200);

let count = 0;
let hits = new Map();
let ids = new Map(); // endpoint path + event id → first webhook-id
let duplicatesWithNewId = 0;
let inFlight = new Map();
let maxInFlight = 0;

function handler(req, res) {
  if (req.url === '/__count') return res.end(JSON.stringify({ count: hits.size }));
  if (req.url === '/__stats')
    return res.end(
      JSON.stringify({
        count,
        hits: Object.fromEntries(hits),
        duplicatesWithNewId,
        maxInFlightPerEndpoint: maxInFlight,
      }),
    );
  if (req.url === '/__reset') {
    count = 0;
    hits = new Map();
    ids = new Map();
    duplicatesWithNewId = 0;
    inFlight = new Map();
    maxInFlight = 0;
    return res.end('{}');
  }
  const path = req.url;
  const now = (inFlight.get(path) ?? 0) + 1;
  inFlight.set(path, now);
  if (now > maxInFlight) maxInFlight = now;
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    inFlight.set(path, inFlight.get(path) - 1);
  };
  res.on('close', finish);
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    count++;
    const id = req.headers['webhook-id'];
    const mode = path.split('/')[1];
    if (mode === 'ok' || mode === 'slow') {
      if (id && !hits.has(id)) hits.set(id, Date.now());
      // The envelope has no id of its own: an event is its bytes, the same on every attempt.
      const key = `${path} ${Buffer.concat(chunks).toString('utf8')}`;
      const first = ids.get(key);
      if (first === undefined) ids.set(key, id);
      else if (first !== id) duplicatesWithNewId++;
    }
    const answer = (status) => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'text/plain', 'content-length': '2' });
      res.end('ok');
    };
    if (mode === 'hang') return;
    if (mode === 'fail') return answer(500);
    if (mode === 'slow') return void setTimeout(() => answer(200), SLOW_MS);
    answer(200);
  });
}

const ports = [];
let listening = 0;
for (let i = 0; i < PORTS; i++) {
  const server = createServer(handler);
  server.keepAliveTimeout = 10_000;
  server.listen(0, '127.0.0.1', () => {
    ports[i] = server.address().port;
    if (++listening === PORTS) process.stdout.write(`${JSON.stringify({ ports })}\n`);
  });
}
