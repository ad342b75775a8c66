#!/usr/bin/env node
'use strict';
/*
 * The bench's webhook receiver: answers every POST with 200 at once, and notes when each
 * webhook-id first arrived (Date.now(), the same clock as the database rows it is compared
 * with). GET /__count returns {count} (cheap enough to poll while the worker runs: the bench
 * must not take the CPU it measures); GET /__stats returns {count, hits: {webhookId: ms}};
 * POST /__reset forgets.
 *   PORT=… node bench/webhook-receiver.js
 */
const { createServer } = require('node:http');

let count = 0;
let hits = new Map();
const server = createServer((req, res) => {
  if (req.url === '/__count') return res.end(JSON.stringify({ count }));
  if (req.url === '/__stats') return res.end(JSON.stringify({ count, hits: Object.fromEntries(hits) }));
  if (req.url === '/__reset') {
    count = 0;
    hits = new Map();
    return res.end('{}');
  }
  req.on('data', () => undefined);
  req.on('end', () => {
    count++;
    const id = req.headers['webhook-id'];
    if (id && !hits.has(id)) hits.set(id, Date.now());
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
    res.end('ok');
  });
});
server.keepAliveTimeout = 10_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
