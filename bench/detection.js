#!/usr/bin/env node
'use strict';
/*
 * Change detection at scale, on Postgres + Bull with the workers as separate processes, against
 * fake registers on loopback (bench/detection-fakes.js): BENCH_WATCHES watches (default
 * 100,000) spread evenly over the six registers, one account, baselines already taken; a quiet
 * cycle, then 1% of the companies of every register renamed and a second cycle. Reports the
 * register calls of each cycle per register, the change events, and how long after the change
 * the last event of each register was written; with one worker, then two.
 *   DATABASE_URL=… REDIS_URL=… node bench/detection.js
 * BENCH_DETECTION_INTERVAL (seconds, default 120) is the cycle; BENCH_WORKERS ("1,2").
 */
const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { join } = require('node:path');
const { Client } = require('pg');
const { ensureBuilt, run, startNode, stop } = require('./lib');
const { Fakes, NUMBERS, body, esAnswer, T } = require('./detection-fakes');

const ROOT = join(__dirname, '..');
const COUNTRIES = ['GB', 'AU', 'CA', 'FR', 'DK', 'NO'];

function dist(p) {
  return require(join(ROOT, 'dist', p));
}

/** What the connector would make of each fake answer: the snapshot the baseline left. */
function recordOf(cc, n) {
  const b = body[cc](n, false);
  switch (cc) {
    case 'NO':
      return dist('registers/no/brreg-parsers.js').parseEnhet(b);
    case 'GB':
      return dist('registers/gb/ch-api-parsers.js').parseCompanyProfile(b);
    case 'FR':
      return dist('registers/fr/insee-parsers.js').parseInseeSiretSearch({ ...T.FR, etablissements: [b] })[0];
    case 'DK': {
      const p = dist('registers/dk/cvr-parser.js');
      return p.toCvrRecord(p.parseCvrSearchBody(esAnswer([b]))[0]);
    }
    case 'AU':
      return dist('registers/au/abr-parser.js').parseAbnDetails(b);
    case 'CA':
      return dist('registers/ca/corpcan-parser.js').parseCorpCanCorporation(b);
  }
}

async function seed(db, fakes, perRegister, intervalMs) {
  const { comparisonKeys, watchedValues } = dist('events/monitoring/snapshots/company-diff.js');
  const { nextSlot } = dist('events/monitoring/checks/check-schedule.js');
  const { entityId } = dist('registers/entity-id.js');
  const now = new Date();
  const account = `acc_bench_${randomBytes(4).toString('hex')}`;
  const hasAccounts = (await db.query(`SELECT to_regclass('account') IS NOT NULL AS t`)).rows[0].t;
  if (hasAccounts)
    await db.query(
      `INSERT INTO account (id, email, created_at, live_delivery_since) VALUES ($1, 'bench@example.com', $2, $2)`,
      [account, now],
    );
  for (const cc of COUNTRIES) {
    const template = recordOf(cc, NUMBERS[cc](0));
    for (let start = 0; start < perRegister; start += 5_000) {
      const rows = [];
      for (let i = start; i < Math.min(start + 5_000, perRegister); i++) {
        const n = NUMBERS[cc](i);
        if (i % 100 === 50) fakes.changed[cc].add(n);
        const values = watchedValues({ ...template, name: `BENCH ${cc} ${n}` });
        const keys = comparisonKeys(values);
        const id = entityId(cc, n);
        rows.push([id, n, values, keys, nextSlot(id, now, intervalMs)]);
      }
      const col = (f) => rows.map(f);
      await db.query(
        `INSERT INTO company_snapshot (entity_id, country, registration_number, name, status, address, legal_form, name_key, status_key, address_key, legal_form_key,
           source_mode, source_url, retrieved_at, baseline_at, checked_at, check_outcome, next_check_at, created_at)
         SELECT e, $1, n, a, b, c, d, ak, bk, ck, dk, 'live', 'https://example.invalid/' || n, $2, $2, $2, 'baseline', t, $2
         FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::timestamptz[])
           AS x(e, n, a, b, c, d, ak, bk, ck, dk, t)`,
        [
          cc,
          now,
          col((r) => r[0]),
          col((r) => r[1]),
          col((r) => r[2].name),
          col((r) => r[2].status),
          col((r) => r[2].address),
          col((r) => r[2].legal_form),
          col((r) => r[3].name),
          col((r) => r[3].status),
          col((r) => r[3].address),
          col((r) => r[3].legal_form),
          col((r) => r[4]),
        ],
      );
      await db.query(
        `INSERT INTO watch (id, account_id, entity_id, country, registration_number, notify_no_change, baseline_at, baseline_source_mode, created_at)
         SELECT 'wch_' || e, $1, e, $2, n, false, $3, 'live', $3 FROM unnest($4::text[], $5::text[]) AS x(e, n)`,
        [account, cc, now, col((r) => r[0]), col((r) => r[1])],
      );
    }
  }
  return account;
}

async function scenario(workers, perRegister, intervalS) {
  const base = process.env.DATABASE_URL;
  const name = `rl_bench_detect_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const fakes = await new Fakes().start();
  const env = {
    ...fakes.env,
    DATABASE_URL: url.toString(),
    REDIS_URL: process.env.REDIS_URL,
    REDIS_KEY_PREFIX: `rlbench-${randomBytes(4).toString('hex')}`,
    MIGRATE_ON_BOOT: 'false',
    DATASET_SEED: 'false',
    REGISTER_GB_API_KEY: 'bench',
    REGISTER_GB_STREAM_KEY: 'bench',
    REGISTER_FR_API_KEY: 'bench',
    REGISTER_DK_USERNAME: 'bench',
    REGISTER_DK_PASSWORD: 'bench',
    REGISTER_AU_GUID: 'bench',
    DETECTION_INTERVAL_SECONDS: String(intervalS),
    FEED_POLL_INTERVAL_SECONDS: '5',
    PROBE_INTERVAL_SECONDS: '30',
    LOG_LEVEL: 'warn',
  };
  run(process.execPath, [join(ROOT, 'dist/cli/migrate.js')], env);
  const db = new Client({ connectionString: url.toString() });
  await db.connect();
  const seedStart = Date.now();
  await seed(db, fakes, perRegister, intervalS * 1000);
  console.log(`  seeded ${perRegister * 6} watches in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`);
  const children = Array.from({ length: workers }, (_, i) => {
    if (!process.env.BENCH_DEBUG) return startNode([join(ROOT, 'dist/worker.js')], env);
    const child = spawn(process.execPath, [join(ROOT, 'dist/worker.js')], {
      cwd: ROOT,
      env: { ...process.env, ...env, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.on('data', (d) => process.stdout.write(`[worker ${i}] ${d}`));
    return child;
  });
  try {
    for (;;) {
      const live = (await db.query(`SELECT count(*)::int AS n FROM register_state WHERE status = 'live'`)).rows[0].n;
      if (live === 6) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const cycle = async (label, onStart) => {
      fakes.calls = {};
      const t0 = new Date();
      onStart?.();
      const last = {};
      const deadline = Date.now() + intervalS * 1000;
      while (Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 1_000));
        if (!onStart) continue;
        const rows = (
          await db
            .query(
              `SELECT (body::jsonb)->'data'->>'country' AS country, count(*)::int AS n FROM event WHERE created_at >= $1 AND kind = 'company.name_changed' GROUP BY 1`,
              [t0],
            )
            .catch(() => ({ rows: [] }))
        ).rows;
        for (const r of rows)
          if (!last[r.country] || last[r.country].n !== r.n)
            last[r.country] = { n: r.n, at: (Date.now() - t0.getTime()) / 1000 };
      }
      const checked = (
        await db.query(
          `SELECT country, count(*)::int AS n FROM company_snapshot WHERE checked_at >= $1 GROUP BY country`,
          [t0],
        )
      ).rows;
      if (process.env.BENCH_DEBUG) {
        console.log(
          (
            await db.query(
              `SELECT country, check_outcome, count(*)::int AS n, count(*) FILTER (WHERE lease_token IS NOT NULL)::int AS leased, count(*) FILTER (WHERE read_requested_at IS NOT NULL)::int AS requested, min(next_check_at) AS next FROM company_snapshot GROUP BY 1, 2 ORDER BY 1, 2`,
            )
          ).rows,
        );
        console.log((await db.query(`SELECT feed, cursor, caught_up_at, lease_owner FROM feed_cursor`)).rows);
      }
      return {
        label,
        calls: { ...fakes.calls },
        checked: Object.fromEntries(checked.map((r) => [r.country.trim(), r.n])),
        last,
      };
    };
    const quiet = await cycle('quiet');
    const changed = await cycle('1% changed', () => fakes.flip());
    return {
      quiet,
      changed,
      changedPerRegister: Object.fromEntries(COUNTRIES.map((cc) => [cc, fakes.changed[cc].size])),
    };
  } finally {
    await Promise.all(children.map((c) => stop(c)));
    await db.end();
    await fakes.stop();
    await require('./lib').dropRedisPrefix(env.REDIS_KEY_PREFIX);
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

async function main() {
  ensureBuilt();
  if (!process.env.DATABASE_URL || !process.env.REDIS_URL) {
    console.log('detection benchmark skipped: it needs DATABASE_URL and REDIS_URL (Postgres + Bull).');
    return;
  }
  const total = Number(process.env.BENCH_WATCHES ?? 100_000);
  const perRegister = Math.floor(total / 6);
  const intervalS = Number(process.env.BENCH_DETECTION_INTERVAL ?? 120);
  const modes = { GB: 'stream', AU: 'schedule', CA: 'schedule', FR: 'feed (INSEE)', DK: 'feed', NO: 'feed' };
  for (const workers of (process.env.BENCH_WORKERS ?? '1,2').split(',').map(Number)) {
    console.log(
      `\nChange detection, ${perRegister * 6} watches, cycle ${intervalS} s, ${workers} worker(s), Postgres + Bull:`,
    );
    const r = await scenario(workers, perRegister, intervalS);
    console.log(
      '| register | mode | watches | calls, quiet cycle | companies checked | calls, cycle with 1% changed | changed | change events | last event after |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const cc of COUNTRIES) {
      const last = r.changed.last[cc];
      console.log(
        `| ${cc} | ${modes[cc]} | ${perRegister} | ${r.quiet.calls[cc] ?? 0} | ${r.quiet.checked[cc] ?? 0} | ${r.changed.calls[cc] ?? 0} | ${r.changedPerRegister[cc]} | ${last?.n ?? 0} | ${last ? `${last.at.toFixed(0)} s` : '—'} |`,
      );
    }
  }
}

module.exports = { main };
if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
