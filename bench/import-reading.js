#!/usr/bin/env node
'use strict';
/*
 * The importer's own side of a bulk load, without a database (issue 12's import ratio is in
 * bench/national-scale.js; this shows where the importer's share of it goes):
 * 1. starting the import command: the modules `dist/cli/dataset-import.js` loads before it reads
 *    a byte, timed in a fresh process, against a bare `node -e 0`;
 * 2. reading each bench file (GB BasicCompanyData CSV, NO enheter JSON; made by
 *    bench/bulk-generator.js if missing) the way a first import does — the format's reader, the
 *    folded name, the word tally and the COPY lines — against only decompressing and decoding
 *    the same file to text, in the same run, BENCH_ROUNDS rounds alternating.
 *
 *   BENCH_ROWS=500000 BENCH_NO_ROWS=300000 node bench/import-reading.js
 *   (files in the temporary directory, named as national-scale.js names them, so both share them)
 */
const { spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { ROOT, ensureBuilt, median } = require('./lib');
const { generateGb, generateNo } = require('./bulk-generator');

const ROWS = Number(process.env.BENCH_ROWS ?? 500_000);
const NO_ROWS = Number(process.env.BENCH_NO_ROWS ?? 300_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** Milliseconds a fresh node takes to run `code`, and what it printed. */
function inFreshNode(code) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['-e', code], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, out: r.stdout.trim() };
}

async function decodeOnly(file, format) {
  const { openInput } = require(join(ROOT, 'dist/registers/bulk/open-input'));
  const { textChunks } = require(join(ROOT, 'dist/registers/bulk/text-chunks'));
  const input = await openInput(file, { entryPattern: format.zipEntry });
  let chars = 0;
  for await (const part of input.parts()) for await (const text of textChunks(part.stream)) chars += text.length;
  return chars;
}

async function readLikeTheImport(file, format) {
  const { openInput } = require(join(ROOT, 'dist/registers/bulk/open-input'));
  const { completeRow } = require(join(ROOT, 'dist/dataset/import/complete-row'));
  const { copyTextLine } = require(join(ROOT, 'dist/dataset/import/company-writer'));
  const { CopyBlocks } = require(join(ROOT, 'dist/dataset/import/copy-blocks'));
  const { WordTally } = require(join(ROOT, 'dist/dataset/word-tally'));
  const ctx = { urls: { WEB: 'https://registry.example' }, officialUrl: 'https://registry.example' };
  const provenance = { sourceKind: 'dataset:bench', datasetName: 'bench', producedAt: '2026-11-01T00:00:00.000Z' };
  const input = await openInput(file, { entryPattern: format.zipEntry });
  const blocks = new CopyBlocks();
  const tally = new WordTally();
  let rows = 0;
  for await (const part of input.parts()) {
    for await (const got of format.read(part.stream, ctx)) {
      for (const item of Array.isArray(got) ? got : [got]) {
        if (item.kind !== 'row') continue;
        const r = completeRow(item.row, provenance);
        tally.add(r.nameNormalized);
        blocks.add(copyTextLine(r, false));
        rows += 1;
      }
    }
  }
  return rows;
}

async function seconds(fn) {
  const t = process.hrtime.bigint();
  const result = await fn();
  return { s: Number(process.hrtime.bigint() - t) / 1e9, result };
}

async function main() {
  ensureBuilt();
  const { formatsOf } = require(join(ROOT, 'dist/dataset/import/dataset-formats'));
  const files = [
    ['GB', join(tmpdir(), `BasicCompanyData-bench-${ROWS}.csv`), generateGb, ROWS],
    ['NO', join(tmpdir(), `enheter-bench-${NO_ROWS}.json.gz`), generateNo, NO_ROWS],
  ];
  for (const [, file, generate, rows] of files) if (!existsSync(file)) await generate(file, rows);

  const bare = [];
  const command = [];
  let modules = 0;
  for (let i = 0; i < ROUNDS; i++) {
    bare.push(inFreshNode('0').ms);
    const r = inFreshNode(
      `require('./dist/dataset/import/dataset-import-cli'); console.log(Object.keys(require.cache).length)`,
    );
    command.push(r.ms);
    modules = Number(r.out);
  }
  console.log(
    `starting the import command: ${median(command).toFixed(0)} ms (${modules} modules) against a bare node's ${median(bare).toFixed(0)} ms, median of ${ROUNDS}`,
  );

  for (const [cc, file] of files) {
    const format = formatsOf(cc)[0];
    const decode = [];
    const read = [];
    let rows = 0;
    for (let i = 0; i < ROUNDS; i++) {
      decode.push((await seconds(() => decodeOnly(file, format))).s);
      const r = await seconds(() => readLikeTheImport(file, format));
      read.push(r.s);
      rows = r.result;
    }
    const d = median(decode);
    const s = median(read);
    console.log(
      `${cc}: ${rows.toLocaleString('en')} rows read, folded and encoded in ${s.toFixed(2)} s (${Math.round(rows / s).toLocaleString('en')} rows/s) against ${d.toFixed(2)} s to decompress and decode the file: ${(s / d).toFixed(1)}× (median of ${ROUNDS})`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
