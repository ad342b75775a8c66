#!/usr/bin/env node
'use strict';
/*
 * The ordinary path against its tricks (issue 24, point 5): each fast path, hand-written
 * replacement of what Nest or a library does, or boot-time trick, measured with and without it
 * in the same run, on the figure it was meant to improve.
 *
 * "With" is the tree at BENCH_TRICKS_AT (the last commit that had every trick), built once in a
 * temporary directory. Each "without" is a copy of that build where the trick is taken out: the
 * edited source files are compiled again (one file each, TypeScript's transpileModule) over a
 * copy of its dist/, or the node flags changed. Nothing in the production code toggles them.
 * The current tree (its dist/) runs beside them as one more column of the throughput part.
 *
 *   node bench/compare.js   (BENCH_ROUNDS=3, BENCH_SECONDS=5, BENCH_CONNECTIONS=10,
 *                            BENCH_ONLY=throughput|start|rss, BENCH_TRICKS_AT=<commit>,
 *                            BENCH_COMPARE_DIR=<dir>: build there and keep it for the next run)
 */
const { execFileSync, spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const { tmpdir } = require('node:os');
const { join, relative } = require('node:path');
const ts = require('typescript');
const { median, cpuMs, EMBEDDED, ROOT, START_FLAGS, ensureBuilt, freePort, waitFor, cannon } = require('./lib');

const TRICKS_AT = process.env.BENCH_TRICKS_AT ?? '1259807';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
process.env.BENCH_SECONDS ??= '5';
const ONLY = process.env.BENCH_ONLY;
const REGISTERS = '/api/public/v1/registers';
const NOISE = 'none (the base against itself: the noise)';
const ALL = 'every removal together (this tree)';

/** Replaces `from` by `to` in `text`, and fails when `from` is not there (the trick moved). */
function swap(text, from, to) {
  if (!text.includes(from)) throw new Error(`not found: ${from.slice(0, 80)}`);
  return text.replace(from, to);
}

/*
 * The tricks, each with what taking it out changes (source edits applied to the TRICKS_AT
 * tree, node flags, or the template rebuilt) and the figures it is judged on.
 */
const TRICKS = [
  {
    name: 'prefix table (byPathPrefix)',
    figures: ['throughput'],
    edits: {
      'src/app/http-app.ts': (s) =>
        swap(
          s,
          `  express.use(
    byPathPrefix([
      ['/api/public/v1', [publicCors, countRequest, requireJsonAnswer, answerRegisterList]],
      ['/api/public', [publicCors]],
      ['/api/v1/watches/bulk', [accountCors, requireJsonAnswer, requireJsonBody, parseJsonBody(WATCHES_BULK_MAX_BODY)]],
      ['/api/v1', [accountCors, requireJsonAnswer, requireJsonBody, parseJsonBody()]],
    ]),
  );`,
          `  express.use('/api/public', publicCors);
  express.use('/api/public/v1', countRequest, requireJsonAnswer, answerRegisterList);
  express.use('/api/v1', accountCors, requireJsonAnswer, requireJsonBody);
  express.use('/api/v1/watches/bulk', parseJsonBody(WATCHES_BULK_MAX_BODY));
  express.use('/api/v1', parseJsonBody());`,
        ),
      // Under a mounted layer req.path is the rest of the path.
      'src/status/register-list-response.ts': (s) =>
        swap(s, 'req.path === REGISTERS_PATH', 'req.baseUrl + req.path === REGISTERS_PATH'),
    },
  },
  {
    name: 'CORS wrapper (openCors)',
    figures: ['throughput'],
    edits: {
      'src/app/http-app.ts': (s) =>
        swap(
          swap(s, 'const publicCors = openCors(', 'const publicCors = cors('),
          'const accountCors = openCors(',
          'const accountCors = cors(',
        ),
    },
  },
  {
    name: 'GET /registers ahead of the router',
    figures: ['throughput'],
    edits: {
      'src/app/http-app.ts': (s) =>
        swap(
          s,
          '[publicCors, countRequest, requireJsonAnswer, answerRegisterList]',
          '[publicCors, countRequest, requireJsonAnswer]',
        ),
    },
  },
  {
    name: '/registers ahead of router + cached bytes/ETag',
    figures: ['throughput'],
    edits: {
      'src/app/http-app.ts': (s) =>
        swap(
          s,
          '[publicCors, countRequest, requireJsonAnswer, answerRegisterList]',
          '[publicCors, countRequest, requireJsonAnswer]',
        ),
      // The route as Nest and Express answer it: the list object, serialized and tagged by res.json.
      'src/status/registers.controller.ts': (s) =>
        swap(
          s,
          `    if (provides !== undefined || status !== undefined)
      return this.registers.list({ provides, status }).then((list) => void res.json(list));
    return this.registers.listJson().then((json) => this.response.send(json, res));`,
          `    return this.registers.list({ provides, status }).then((list) => void res.json(list));`,
        ),
    },
  },
  {
    name: 'request line written by hand',
    figures: ['throughput'],
    edits: {
      'src/platform/logging/request-logging.ts': (s) =>
        swap(
          s,
          'completed(bindings.req, statusCode, responseTime);',
          "root.info({ ...bindings, res: { statusCode }, responseTime }, 'request completed');",
        ),
    },
  },
  {
    name: 'request logger made lazily',
    figures: ['throughput'],
    edits: {
      'src/platform/logging/request-logging.ts': (s) =>
        swap(
          s,
          'storage.run(new LazyRequestStore(root, bindings) as unknown as Store, next);',
          'storage.run(new Store(root.child(bindings)), next);',
        ),
    },
  },
  {
    name: 'log lines written asynchronously',
    figures: ['throughput'],
    edits: {
      'src/platform/logging/logging.module.ts': (s) =>
        swap(s, 'pino.destination({ dest: 1, sync: false })', 'pino.destination({ dest: 1, sync: true })'),
    },
  },
  {
    name: 'OpenAPI document built on first use',
    figures: ['start'],
    edits: {
      'src/platform/openapi/openapi.controller.ts': (s) =>
        swap(s, 'this.build = build;\n    this.built = undefined;', 'this.build = build;\n    this.built = build();'),
    },
  },
  {
    name: 'template copied with cp -Rp',
    figures: ['start'],
    edits: {
      'src/platform/database/embedded-template.ts': (s) =>
        swap(s, "if (process.platform !== 'win32') {", 'if (process.platform === ("none" as string)) {'),
    },
  },
  {
    name: 'template0/template1 dropped from template',
    figures: ['start'],
    rebuildTemplate: true,
    edits: {
      'src/app/embedded-template-builder.ts': (s) =>
        swap(s, "for (const template of ['template0', 'template1']) {", 'for (const template of [] as string[]) {'),
    },
  },
  {
    name: 'embedded template (vs initdb + migrations)',
    figures: ['start'],
    noTemplate: true,
    edits: {},
  },
  {
    name: '--expose-gc and the boot collections',
    figures: ['rss'],
    flags: (flags) => flags.filter((f) => f !== '--expose-gc'),
    edits: {},
  },
  {
    name: 'WASM compiled baseline only (--liftoff-only)',
    figures: ['rss', 'start'],
    edits: {
      'src/platform/database/pglite-pool.ts': (s) => swap(s, "setFlagsFromString('--liftoff-only');", ''),
    },
  },
];

function sh(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status}`);
}

/** The TRICKS_AT tree, fully built (pages and embedded templates included), in `dir`. */
function buildBase(dir) {
  if (fs.existsSync(join(dir, 'dist/main.js')) && fs.existsSync(join(dir, '.built'))) return;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  console.log(`building ${TRICKS_AT} in ${dir} …`);
  const tar = execFileSync('git', ['archive', TRICKS_AT], { cwd: ROOT, maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  fs.symlinkSync(fs.realpathSync(join(ROOT, 'node_modules')), join(dir, 'node_modules'));
  sh('npm', ['run', 'build', '--silent'], dir);
  fs.writeFileSync(join(dir, '.built'), TRICKS_AT);
}

const compilerOptions = (() => {
  const file = join(ROOT, 'tsconfig.build.json');
  const parsed = ts.parseJsonConfigFileContent(ts.readConfigFile(file, ts.sys.readFile).config, ts.sys, ROOT);
  return { ...parsed.options, sourceMap: false, incremental: false, tsBuildInfoFile: undefined };
})();

/** A copy of the base with the trick taken out: its own dist/, everything else linked. */
function buildVariant(base, dir, trick) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir);
  for (const entry of fs.readdirSync(base)) if (entry !== 'dist') fs.symlinkSync(join(base, entry), join(dir, entry));
  fs.cpSync(join(base, 'dist'), join(dir, 'dist'), {
    recursive: true,
    filter: (src) => relative(join(base, 'dist'), src) !== 'embedded-template',
  });
  if (!trick.noTemplate && !trick.rebuildTemplate)
    fs.symlinkSync(join(base, 'dist/embedded-template'), join(dir, 'dist/embedded-template'));
  for (const [file, edit] of Object.entries(trick.edits)) {
    const source = edit(fs.readFileSync(join(base, file), 'utf8'));
    const { outputText } = ts.transpileModule(source, { compilerOptions, fileName: file });
    fs.writeFileSync(join(dir, 'dist', relative('src', file).replace(/\.ts$/, '.js')), outputText);
  }
  if (trick.rebuildTemplate) sh(process.execPath, ['dist/cli/embedded-template.js'], dir);
}

/** The node flags of `npm start` in the base tree. */
function startFlags(dir) {
  const start = JSON.parse(fs.readFileSync(join(dir, 'package.json'), 'utf8')).scripts.start;
  const m = /^node\s+(.*?)\s*dist\/main\.js/.exec(start);
  return m && m[1] ? m[1].split(/\s+/) : [];
}

function closedRegisters(dir) {
  const { REGISTER_TABLE } = require(join(dir, 'dist/registers/registers.js'));
  const env = {};
  for (const def of REGISTER_TABLE)
    for (const [purpose, endpoint] of Object.entries(def.endpoints))
      if (!endpoint.linksOnly)
        env[`REGISTER_${def.country}_${purpose}_URL`] =
          `http://127.0.0.1:9/${def.country.toLowerCase()}/${purpose.toLowerCase()}`;
  return env;
}

/** Starts `npm start`'s process of a side (its flags, embedded) on a data directory. */
async function startSide(side, dataDir, env = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, [...side.flags, 'dist/main.js'], {
    cwd: side.dir,
    env: {
      ...process.env,
      ...EMBEDDED,
      ...side.registers,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      WEBHOOK_SECRETS_KEY: Buffer.alloc(32, 9).toString('base64'),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { child, port };
}

async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function rssMb(pid) {
  return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
}

/**
 * Cold start (an empty DATA_DIR) to the first 200 of /registers: the time, and the CPU the
 * process used for it (its own and its waited-for children's, such as cp): on a busy machine
 * the time mostly measures the machine, the CPU much less so.
 */
async function coldStart(side, work) {
  const dataDir = fs.mkdtempSync(join(work, 'data-'));
  const t0 = process.hrtime.bigint();
  const { child, port } = await startSide(side, join(dataDir, 'd'));
  try {
    await waitFor(`http://127.0.0.1:${port}${REGISTERS}`, 300_000);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    return { ms, cpu: cpuWithChildrenMs(child.pid) };
  } finally {
    await stop(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** utime + stime + cutime + cstime of /proc/<pid>/stat, in ms (clock ticks of 10 ms). */
function cpuWithChildrenMs(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 10;
}

/** RSS of the idle process 15 s after it listens (after the boot's collections, where there are any). */
async function idleRss(side, work) {
  const dataDir = fs.mkdtempSync(join(work, 'data-'));
  const { child, port } = await startSide(side, join(dataDir, 'd'));
  try {
    await waitFor(`http://127.0.0.1:${port}/health/live`, 300_000);
    await sleep(15_000);
    return rssMb(child.pid);
  } finally {
    await stop(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const pct = (without, withIt) => `${(((without - withIt) / withIt) * 100).toFixed(1)}%`;

async function main() {
  const work = process.env.BENCH_COMPARE_DIR ?? fs.mkdtempSync(join(tmpdir(), 'rl-bench-compare-'));
  fs.mkdirSync(work, { recursive: true });
  ensureBuilt();
  const baseDir = join(work, 'base');
  buildBase(baseDir);
  const baseFlags = startFlags(baseDir);
  const registers = closedRegisters(baseDir);
  const withSide = { name: `with every trick (${TRICKS_AT})`, dir: baseDir, flags: baseFlags, registers };
  const sides = TRICKS.map((trick, i) => {
    const dir = join(work, `without-${i}`);
    console.log(`preparing: without ${trick.name}`);
    buildVariant(baseDir, dir, trick);
    return {
      trick,
      name: `without ${trick.name}`,
      dir,
      flags: trick.flags ? trick.flags(baseFlags) : baseFlags,
      registers,
    };
  });
  const current = { name: 'this tree (dist/)', dir: ROOT, flags: START_FLAGS, registers: closedRegisters(ROOT) };
  // The base measured against itself: how far two identical sides differ in this run.
  const noise = { ...withSide, name: 'the base again (no change)' };
  const rows = [];
  const wants = (figure) => !ONLY || ONLY === figure;

  if (wants('throughput')) {
    // Each side beside a process of its own of the base, both started, warmed and loaded
    // together, half the connections each, round after round: on a shared machine the load of
    // other work drifts, and both get the same drift and the same warm-up.
    const half = Math.max(1, Math.round(Number(process.env.BENCH_CONNECTIONS ?? 10) / 2));
    const env = { RATE_LIMIT_ALLOWLIST: '127.0.0.1', LOG_LEVEL: 'info' };
    console.log(
      `\n/registers, each side beside the base (${ROUNDS} rounds of ${process.env.BENCH_SECONDS} s, ${half} connections each, medians; LOG_LEVEL=info)`,
    );
    for (const side of [noise, ...sides.filter((s) => s.trick.figures.includes('throughput')), current]) {
      const pair = [];
      try {
        for (const s of [withSide, side]) {
          const dataDir = fs.mkdtempSync(join(work, 'data-'));
          const { child, port } = await startSide(s, join(dataDir, 'd'), env);
          pair.push({ side: s, child, port, dataDir });
          await waitFor(`http://127.0.0.1:${port}${REGISTERS}`, 300_000).catch((err) => {
            throw new Error(`${s.name}: ${err.message}`);
          });
        }
        const load = async (p, duration) => {
          const before = cpuMs(p.child.pid);
          const r = await cannon(p.side.name, {
            url: `http://127.0.0.1:${p.port}${REGISTERS}`,
            connections: half,
            ...(duration ? { duration } : {}),
          });
          return { ...r, cpuUs: ((cpuMs(p.child.pid) - before) * 1000) / r.total };
        };
        await Promise.all(pair.map((p) => load(p, 3)));
        const runs = [];
        for (let round = 0; round < ROUNDS; round++) runs.push(await Promise.all(pair.map((p) => load(p))));
        const m = (f) => ({
          base: median(runs.map(([b]) => f(b))),
          side: median(runs.map(([, o]) => f(o))),
          ratio: median(runs.map(([b, o]) => f(o) / f(b))),
        });
        const rps = m((x) => x.rps);
        const p99 = m((x) => x.p99);
        const cpu = m((x) => x.cpuUs);
        console.log(
          `${side.name.padEnd(58)} ${rps.side.toFixed(0).padStart(6)} req/s (base ${rps.base.toFixed(0)})  p99 ${p99.side} ms (${p99.base})  CPU ${cpu.side.toFixed(0)} µs/req (${cpu.base.toFixed(0)})`,
        );
        const name = side.trick ? side.trick.name : side === noise ? NOISE : ALL;
        const change = (r) => `${((r - 1) * 100).toFixed(1)}%`;
        rows.push([
          name,
          '/registers req/s',
          rps.base.toFixed(0),
          rps.side.toFixed(0),
          change(rps.ratio),
          rps.ratio <= 1 / 1.2,
        ]);
        rows.push([name, '/registers p99 ms', p99.base, p99.side, change(p99.ratio), p99.ratio >= 1.2]);
        rows.push([
          name,
          '/registers CPU µs/req',
          cpu.base.toFixed(0),
          cpu.side.toFixed(0),
          change(cpu.ratio),
          cpu.ratio >= 1.2,
        ]);
      } finally {
        for (const p of pair) {
          await stop(p.child);
          fs.rmSync(p.dataDir, { recursive: true, force: true });
        }
      }
    }
  }

  if (wants('start')) {
    const started = [withSide, noise, ...sides.filter((s) => s.trick.figures.includes('start')), current];
    const times = new Map(started.map((s) => [s, []]));
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? started : [...started].reverse();
      for (const side of order) times.get(side).push(await coldStart(side, work));
    }
    const fig = (side) => ({
      ms: median(times.get(side).map((t) => t.ms)),
      cpu: median(times.get(side).map((t) => t.cpu)),
    });
    const base = fig(withSide);
    console.log(`\ncold start to the first 200 of /registers (${ROUNDS} alternating rounds, medians)`);
    for (const side of started) {
      const f = fig(side);
      const all = times.get(side).map((t) => `${t.ms.toFixed(0)}/${t.cpu}`);
      console.log(
        `${side.name.padEnd(58)} ${f.ms.toFixed(0).padStart(6)} ms, CPU ${String(f.cpu).padStart(5)} ms (${all.join(', ')})`,
      );
      if (side === withSide) continue;
      const name = side.trick?.name ?? (side === noise ? NOISE : ALL);
      rows.push([
        name,
        'cold start ms',
        base.ms.toFixed(0),
        f.ms.toFixed(0),
        pct(f.ms, base.ms),
        f.ms >= 1.2 * base.ms,
      ]);
      rows.push([name, 'cold start CPU ms', base.cpu, f.cpu, pct(f.cpu, base.cpu), f.cpu >= 1.2 * base.cpu]);
    }
  }

  if (wants('rss')) {
    const measuredSides = [withSide, ...sides.filter((s) => s.trick.figures.includes('rss')), current];
    const rss = new Map(measuredSides.map((s) => [s, []]));
    for (let round = 0; round < ROUNDS; round++) {
      // One round's processes side by side: an idle process's memory does not depend on its neighbours.
      const values = await Promise.all(measuredSides.map((side) => idleRss(side, work)));
      measuredSides.forEach((side, i) => rss.get(side).push(values[i]));
    }
    const base = median(rss.get(withSide));
    console.log(`\nidle RSS 15 s after listening (${ROUNDS} rounds, medians)`);
    for (const side of measuredSides) {
      const mb = median(rss.get(side));
      console.log(`${side.name.padEnd(60)} ${mb.toFixed(0).padStart(5)} MB`);
      if (side !== withSide)
        rows.push([
          side.trick?.name ?? ALL,
          'idle RSS MB',
          base.toFixed(0),
          mb.toFixed(0),
          pct(mb, base),
          mb >= 1.2 * base,
        ]);
    }
  }

  console.log('\n| trick | figure | with | without | change without | buys ≥ 20% |');
  console.log('|---|---|---:|---:|---:|---|');
  for (const [trick, figure, w, wo, change, buys] of rows)
    console.log(`| ${trick} | ${figure} | ${w} | ${wo} | ${change} | ${buys ? 'yes' : 'no'} |`);
  if (!process.env.BENCH_COMPARE_DIR) fs.rmSync(work, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
