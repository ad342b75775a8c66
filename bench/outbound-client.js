#!/usr/bin/env node
'use strict';
/*
 * The outbound webhook client alone (no database, no queue) against bench/webhook-receiver.js,
 * which answers every POST with 200 at once:
 * - autocannon's raw POST rate (32 connections), the ceiling of receiver and machine;
 * - the node:http client the service had before undici (the baseline: its source is read
 *   from git at BENCH_BASELINE, the last commit with it, and compiled against today's dist/,
 *   so no second copy of it lives in the tree);
 * - the current client (dist/events/webhooks/outbound/outbound-http-client.js);
 * each with 32 requests in flight for BENCH_SECONDS, the same ~700-byte JSON body, in
 * BENCH_ROUNDS rounds whose order alternates (a, b, c, then c, b, a, …) so that neither
 * warm-up nor the other engineer's load favours one. Also the CPU per request of this process
 * (process.cpuUsage: the client's own cost) and of the receiver (/proc).
 *
 *   node bench/outbound-client.js   (BENCH_SECONDS=5, BENCH_ROUNDS=2, BENCH_NO_BUILD=1)
 */
const { execFileSync } = require('node:child_process');
const Module = require('node:module');
const { dirname, join } = require('node:path');
const { ROOT, cpuMs, ensureBuilt, freePort, waitFor, cannon, startNode, stop } = require('./lib');

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const IN_FLIGHT = 32;
/** The last commit whose OutboundHttpClient is the node:http one. */
const BASELINE = process.env.BENCH_BASELINE ?? 'b23ad237098a613daf24d5d18ff6f5b4b7bb8545';
const CLIENT_PATH = 'src/events/webhooks/outbound/outbound-http-client.ts';

/** A delivery body the size of a real one (a name change, its envelope). */
function sampleBody() {
  const now = new Date().toISOString();
  return JSON.stringify({
    type: 'company.name_changed',
    timestamp: now,
    data: {
      entity_id: 'ent_no_912345678',
      country: 'NO',
      company_name: 'BENCH COMPANY 1 AS',
      registration_number: '912345678',
      register: { name: 'Enhetsregisteret', official_url: 'https://www.brreg.no' },
      change: { field: 'name', previous: 'OLD BENCH 1 AS', current: 'BENCH COMPANY 1 AS', observed_at: now },
      provenance: {
        source_mode: 'live',
        source_url: 'https://virksomhet.brreg.no/nb/oppslag/enheter/912345678',
        retrieved_at: now,
      },
      links: {
        self: 'https://registry-lookup.example/api/public/v1/companies/NO/912345678',
        changes: 'https://registry-lookup.example/api/public/v1/companies/NO/912345678/changes',
      },
    },
  });
}

/** The baseline client: its TypeScript at BASELINE, transpiled, with its relative imports from dist/. */
function loadBaseline() {
  const ts = require('typescript');
  const source = execFileSync('git', ['show', `${BASELINE}:${CLIENT_PATH}`], { cwd: ROOT, encoding: 'utf8' });
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  });
  const filename = join(ROOT, 'dist/events/webhooks/outbound/outbound-http-client.baseline.js');
  const m = new Module(filename, module);
  m.filename = filename;
  m.paths = Module._nodeModulePaths(dirname(filename));
  m._compile(outputText, filename);
  return m.exports;
}

function selfCpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** `IN_FLIGHT` loops each POSTing as soon as its previous answer is in, for `seconds`. */
async function drive(client, url, body, seconds) {
  let done = 0;
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (Date.now() < end) {
        const res = await client.post({
          url,
          headers: { 'content-type': 'application/json', 'webhook-id': `msg_${done}` },
          body,
          timeoutMs: 15_000,
        });
        if (res.status !== 200) throw new Error(`answered ${res.status}`);
        done++;
      }
    }),
  );
  return done;
}

async function main() {
  ensureBuilt();
  const { OutboundHttpClient } = require(join(ROOT, 'dist/events/webhooks/outbound/outbound-http-client.js'));
  const { AddressGuard } = require(join(ROOT, 'dist/events/webhooks/outbound/address-guard.js'));
  const { DnsResolver } = require(join(ROOT, 'dist/events/webhooks/outbound/dns-resolver.js'));
  const { parseCidrs } = require(join(ROOT, 'dist/platform/config/cidrs.js'));
  const Baseline = loadBaseline().OutboundHttpClient;

  const port = await freePort();
  const receiver = startNode([join(__dirname, 'webhook-receiver.js')], { PORT: String(port) });
  const target = `http://127.0.0.1:${port}`;
  const body = sampleBody();
  const guard = new AddressGuard(parseCidrs('127.0.0.0/8'));
  try {
    await waitFor(`${target}/__stats`, 10_000);
    const clients = {
      old: new Baseline(guard, new DnsResolver(), 'bench'),
      new: new OutboundHttpClient(guard, new DnsResolver(), 'bench'),
    };
    const measures = {
      autocannon: async () =>
        (
          await cannon('autocannon', {
            url: `${target}/hook/raw`,
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
            connections: IN_FLIGHT,
            duration: SECONDS,
          })
        ).total,
      old: () => drive(clients.old, `${target}/hook/old`, body, SECONDS),
      new: () => drive(clients.new, `${target}/hook/new`, body, SECONDS),
    };
    // Warm-up (JIT, connections), not counted.
    await drive(clients.old, `${target}/hook/warm`, body, 1);
    await drive(clients.new, `${target}/hook/warm`, body, 1);

    const totals = Object.fromEntries(
      Object.keys(measures).map((k) => [k, { requests: 0, ms: 0, cpuMs: 0, receiverCpuMs: 0 }]),
    );
    console.log(
      `Outbound webhook client, ${IN_FLIGHT} requests in flight, ${Buffer.byteLength(body)}-byte JSON body, ${ROUNDS} rounds of ${SECONDS} s each`,
    );
    console.log(`baseline (old): the node:http client at ${BASELINE.slice(0, 10)}, read from git`);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? ['autocannon', 'old', 'new'] : ['new', 'old', 'autocannon'];
      const cells = [];
      for (const name of order) {
        const cpu0 = selfCpuMs();
        const rcpu0 = cpuMs(receiver.pid);
        const t0 = performance.now();
        const requests = await measures[name]();
        const ms = performance.now() - t0;
        const cpu = selfCpuMs() - cpu0;
        const rcpu = cpuMs(receiver.pid) - rcpu0;
        Object.assign(totals[name], {
          requests: totals[name].requests + requests,
          ms: totals[name].ms + ms,
          cpuMs: totals[name].cpuMs + cpu,
          receiverCpuMs: totals[name].receiverCpuMs + rcpu,
        });
        cells.push(`${name} ${((requests * 1000) / ms).toFixed(0)}/s (${(cpu / requests).toFixed(3)} ms CPU/req)`);
      }
      console.log(`round ${round + 1}: ${cells.join(', ')}`);
    }
    clients.old.close();
    clients.new.close();

    const rate = (k) => (totals[k].requests * 1000) / totals[k].ms;
    console.log('');
    for (const [k, label] of [
      ['autocannon', 'autocannon POST'],
      ['old', 'old client (node:http)'],
      ['new', 'new client (undici)'],
    ]) {
      const t = totals[k];
      console.log(
        `${label.padEnd(24)} ${rate(k).toFixed(0).padStart(7)} req/s   this process ${(t.cpuMs / t.requests).toFixed(3)} ms CPU/req   receiver ${(t.receiverCpuMs / t.requests).toFixed(3)} ms CPU/req`,
      );
    }
    console.log(`new ÷ autocannon: ${(rate('new') / rate('autocannon')).toFixed(2)}`);
    console.log(`new ÷ old:        ${(rate('new') / rate('old')).toFixed(2)}`);
    console.log(`old ÷ autocannon: ${(rate('old') / rate('autocannon')).toFixed(2)}`);
    return { autocannon: rate('autocannon'), old: rate('old'), new: rate('new') };
  } finally {
    await stop(receiver);
  }
}

module.exports = { main };

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
