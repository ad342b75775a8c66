#!/usr/bin/env node
'use strict';
/*
 * Realistic bulk files of any size in the registers' official layouts, for benchmarks and the
 * search-quality tests:
 * - GB: Companies House BasicCompanyData CSV (the real 55-column header, every column filled
 *   the way the real file fills it: about 480 bytes a row, like the 2.4 GB of 5 M rows);
 * - NO: Brønnøysund /enheter/lastned, a gzipped JSON array of Enhet objects.
 * Names: 1–3 words drawn from a Zipf distribution (s = 1.1) over the words of Debian's
 * wbritish-large list (about 150,000: common words and proper names, in a seeded random
 * order of frequency), often followed by the usual company words (HOLDINGS, SERVICES, UK,
 * GROUP, PROPERTY…, Zipf-distributed among themselves), then a legal form (LIMITED / LTD…).
 * Row i is a pure function of (seed, i): nameOf(i) gives any row's name without the file.
 *
 *   node bench/bulk-generator.js gb 200000 /tmp/BasicCompanyData-2026-11-01.csv
 *   node bench/bulk-generator.js no 200000 /tmp/enheter_alle.json.gz
 */
const { once } = require('node:events');
const { createWriteStream, readFileSync, existsSync, renameSync } = require('node:fs');
const { join } = require('node:path');
const { createGzip } = require('node:zlib');

const WORD_LIST = process.env.BENCH_WORD_LIST ?? '/usr/share/dict/british-english-large';
const ZIPF_S = 1.1;
const SEED = 20261101;

const COMPANY_WORDS = [
  'UK',
  'HOLDINGS',
  'SERVICES',
  'GROUP',
  'PROPERTY',
  'PROPERTIES',
  'CONSULTING',
  'SOLUTIONS',
  'INVESTMENTS',
  'TRADING',
  'MANAGEMENT',
  'DEVELOPMENTS',
  'INTERNATIONAL',
  'ENTERPRISES',
  'TECHNOLOGIES',
  'VENTURES',
  'CAPITAL',
  'DESIGN',
  'MEDIA',
  'ESTATES',
  'LOGISTICS',
  'ENGINEERING',
  'CONSTRUCTION',
  'RETAIL',
  'FOODS',
  'ENERGY',
  'SYSTEMS',
  'PARTNERS',
  'STUDIO',
  'HOMES',
  'CARE',
  'LEISURE',
  'LONDON',
  'ASSOCIATES',
  'BUILDERS',
  'CONSULTANTS',
  'DIGITAL',
  'FINANCE',
  'HEALTHCARE',
  'MOTORS',
  'RECRUITMENT',
  'TRANSPORT',
  'TRAVEL',
  'VENTURE',
];
const LEGAL = [
  ['LIMITED', 0.68],
  ['LTD', 0.27],
  ['LLP', 0.02],
  ['PLC', 0.01],
  ['', 0.02],
];
const TOWNS = [
  'LONDON',
  'MANCHESTER',
  'BIRMINGHAM',
  'LEEDS',
  'GLASGOW',
  'SHEFFIELD',
  'BRISTOL',
  'EDINBURGH',
  'LIVERPOOL',
  'CARDIFF',
  'NOTTINGHAM',
  'LEICESTER',
  'COVENTRY',
  'BELFAST',
  'READING',
  'BRIGHTON',
];
const STREETS = ['ROAD', 'STREET', 'LANE', 'AVENUE', 'CLOSE', 'WAY', 'DRIVE', 'PLACE', 'COURT', 'GARDENS'];
const SIC = [
  '62020 - Information technology consultancy activities',
  '68209 - Other letting and operating of own or leased real estate',
  '70229 - Management consultancy activities other than financial management',
  '41100 - Development of building projects',
  '96090 - Other service activities n.e.c.',
  '99999 - Dormant Company',
  '47910 - Retail sale via mail order houses or via Internet',
  '56101 - Licensed restaurants',
];

/** Deterministic 32-bit PRNG (mulberry32). */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hash(i, salt) {
  let h = (Math.imul(i ^ salt, 0x9e3779b1) ^ SEED) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  return (h ^ (h >>> 13)) >>> 0;
}

/** Cumulative Zipf weights of n ranks. */
function zipf(n, s) {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let r = 0; r < n; r++) cdf[r] = sum += 1 / Math.pow(r + 1, s);
  for (let r = 0; r < n; r++) cdf[r] /= sum;
  return cdf;
}

function draw(cdf, u) {
  let lo = 0;
  let hi = cdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cdf[mid] < u) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

let model;
/** The vocabulary in frequency order (a seeded shuffle of the word list) and its Zipf CDF. */
function vocabulary() {
  if (model) return model;
  if (!existsSync(WORD_LIST))
    throw new Error(`${WORD_LIST} is missing: apt-get install wbritish-large (or set BENCH_WORD_LIST)`);
  const seen = new Set();
  const words = [];
  for (const line of readFileSync(WORD_LIST, 'utf8').split('\n')) {
    if (!/^[A-Za-z]{2,}$/.test(line)) continue;
    const w = line.toUpperCase();
    if (seen.has(w) || COMPANY_WORDS.includes(w) || LEGAL.some(([l]) => l === w)) continue;
    seen.add(w);
    words.push(w);
  }
  const r = rng(SEED);
  for (let i = words.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [words[i], words[j]] = [words[j], words[i]];
  }
  model = { words, cdf: zipf(words.length, ZIPF_S), companyCdf: zipf(COMPANY_WORDS.length, 1.0) };
  return model;
}

/** The name of row i: 1–3 Zipf words, 0–2 company words, a legal form. */
function nameOf(i) {
  const { words, cdf, companyCdf } = vocabulary();
  const r = rng(hash(i, 0x51));
  const u = r();
  const n = u < 0.45 ? 1 : u < 0.85 ? 2 : 3;
  const parts = [];
  for (let k = 0; k < n; k++) parts.push(words[draw(cdf, r())]);
  const c = r();
  const company = c < 0.45 ? 0 : c < 0.88 ? 1 : 2;
  for (let k = 0; k < company; k++) parts.push(COMPANY_WORDS[draw(companyCdf, r())]);
  let l = r();
  let legal = '';
  for (const [form, p] of LEGAL) {
    if ((l -= p) <= 0) {
      legal = form;
      break;
    }
  }
  if (legal) parts.push(legal);
  return parts.join(' ');
}

/** Unique 8-digit company numbers in an order unrelated to the file's (as the real file, sorted by name). */
function gbNumberOf(i) {
  return String((i * 7919 + 1234567) % 100_000_000).padStart(8, '0');
}

/**
 * Unique organisasjonsnummer with a valid mod-11 check digit, in no particular order: two
 * neighbouring bases never both lack a check digit (their weighted sums differ by 2).
 */
function noNumberOf(i) {
  const weights = [3, 2, 7, 6, 5, 4, 3, 2];
  for (let k = 0; k < 2; k++) {
    const base = String(10_000_000 + ((i * 13) % 11_000_000) * 2 + k);
    const sum = [...base].reduce((s, d, j) => s + Number(d) * weights[j], 0);
    const check = 11 - (sum % 11);
    if (check !== 10) return base + (check === 11 ? '0' : String(check));
  }
  throw new Error('unreachable');
}

function pad2(n) {
  return String(n).padStart(2, '0');
}

function dmy(r, from, to) {
  return `${pad2(1 + Math.floor(r() * 28))}/${pad2(1 + Math.floor(r() * 12))}/${from + Math.floor(r() * (to - from))}`;
}

const q = (v) => `"${String(v).replace(/"/g, '""')}"`;

function gbHeader() {
  return readFileSync(
    join(__dirname, '..', 'test/fixtures/registers/gb/ch-bulk-basiccompanydata-sample.csv'),
    'utf8',
  ).split('\n')[0];
}

function gbLine(i) {
  const { words, cdf } = vocabulary();
  const r = rng(hash(i, 0x9b));
  const number = gbNumberOf(i);
  const town = TOWNS[Math.floor(r() * TOWNS.length)];
  const street = `${1 + Math.floor(r() * 300)} ${words[draw(cdf, r())]} ${STREETS[Math.floor(r() * STREETS.length)]}`;
  const postcode = `${String.fromCharCode(65 + Math.floor(r() * 26))}${String.fromCharCode(65 + Math.floor(r() * 26))}${1 + Math.floor(r() * 20)} ${Math.floor(r() * 10)}${String.fromCharCode(65 + Math.floor(r() * 26))}${String.fromCharCode(65 + Math.floor(r() * 26))}`;
  const status = r() < 0.93 ? 'Active' : r() < 0.5 ? 'Liquidation' : 'Active - Proposal to Strike off';
  const previous = r() < 0.1 ? [dmy(r, 2000, 2024), nameOf(i + 100_000_000)] : ['', ''];
  return [
    q(nameOf(i)),
    q(number),
    q(''),
    q(''),
    q(street),
    q(r() < 0.3 ? `${words[draw(cdf, r())]} PARK` : ''),
    q(town),
    q(r() < 0.4 ? 'GREATER LONDON' : ''),
    q('UNITED KINGDOM'),
    q(postcode),
    q('Private Limited Company'),
    q(status),
    q('United Kingdom'),
    q(''),
    q(dmy(r, 1980, 2026)),
    q('31'),
    q(String(1 + Math.floor(r() * 12))),
    q(dmy(r, 2026, 2028)),
    q(dmy(r, 2023, 2026)),
    q(r() < 0.3 ? 'DORMANT' : 'MICRO ENTITY'),
    q(dmy(r, 2016, 2017)),
    q(dmy(r, 2015, 2016)),
    q('0'),
    q('0'),
    q('0'),
    q('0'),
    q(SIC[Math.floor(r() * SIC.length)]),
    q(r() < 0.3 ? SIC[Math.floor(r() * SIC.length)] : ''),
    q(''),
    q(''),
    q('0'),
    q('0'),
    q(`http://business.data.gov.uk/id/company/${number}`),
    q(previous[0]),
    q(previous[1]),
    ...Array.from({ length: 18 }, () => q('')),
    q(dmy(r, 2026, 2027)),
    q(dmy(r, 2025, 2026)),
  ].join(',');
}

function noLine(i) {
  const r = rng(hash(i, 0x3d));
  const date = `${1950 + Math.floor(r() * 75)}-${pad2(1 + Math.floor(r() * 12))}-${pad2(1 + Math.floor(r() * 28))}`;
  const name = nameOf(i).replace(/ (LIMITED|LTD|LLP|PLC)$/, ' AS');
  return JSON.stringify({
    organisasjonsnummer: noNumberOf(i),
    navn: name,
    organisasjonsform: {
      kode: 'AS',
      beskrivelse: 'Aksjeselskap',
      _links: { self: { href: 'https://data.brreg.no/enhetsregisteret/api/organisasjonsformer/AS' } },
    },
    registreringsdatoEnhetsregisteret: date,
    registrertIMvaregisteret: r() < 0.6,
    naeringskode1: { kode: '62.010', beskrivelse: 'Programmeringstjenester' },
    antallAnsatte: Math.floor(r() * 40),
    harRegistrertAntallAnsatte: true,
    forretningsadresse: {
      land: 'Norge',
      landkode: 'NO',
      postnummer: '0150',
      poststed: 'OSLO',
      adresse: [`Storgata ${1 + Math.floor(r() * 200)}`],
      kommune: 'OSLO',
      kommunenummer: '0301',
    },
    stiftelsesdato: date,
    institusjonellSektorkode: { kode: '2100', beskrivelse: 'Private aksjeselskaper mv.' },
    registrertIForetaksregisteret: true,
    registrertIStiftelsesregisteret: false,
    registrertIFrivillighetsregisteret: false,
    konkurs: r() < 0.01,
    underAvvikling: false,
    underTvangsavviklingEllerTvangsopplosning: false,
    maalform: 'Bokmål',
    _links: { self: { href: `https://data.brreg.no/enhetsregisteret/api/enheter/${noNumberOf(i)}` } },
  });
}

/** Written under a temporary name and renamed when complete: a failed run leaves no file that looks done. */
async function write(path, rows, head, line, sep, tail, gzip) {
  const partial = `${path}.partial`;
  const file = createWriteStream(partial, { highWaterMark: 1 << 20 });
  let out = file;
  if (gzip) {
    out = createGzip({ level: 1 });
    out.pipe(file);
  }
  const closed = once(file, 'close');
  out.write(head);
  for (let start = 0; start < rows; start += 2000) {
    const parts = [];
    for (let i = start; i < Math.min(rows, start + 2000); i++) parts.push((i > 0 ? sep : '') + line(i));
    if (!out.write(parts.join(''))) await once(out, 'drain');
  }
  out.end(tail);
  await closed;
  renameSync(partial, path);
}

/** Companies House BasicCompanyData CSV of `rows` rows. */
function generateGb(path, rows) {
  return write(path, rows, `${gbHeader()}\n`, (i) => `${gbLine(i)}\n`, '', '', false);
}

/** Brønnøysund enheter JSON array (gzipped) of `rows` units, one per line as the register writes them. */
function generateNo(path, rows) {
  return write(path, rows, '[\n', noLine, ',\n', '\n]\n', true);
}

module.exports = { COMPANY_WORDS, nameOf, gbNumberOf, noNumberOf, generateGb, generateNo, vocabulary, rng };

if (require.main === module) {
  const [kind, rows, path] = process.argv.slice(2);
  const gen = { gb: generateGb, no: generateNo }[kind];
  if (!gen || !rows || !path) {
    console.error('usage: node bench/bulk-generator.js gb|no <rows> <path>');
    process.exit(2);
  }
  const t = Date.now();
  gen(path, Number(rows)).then(() =>
    console.log(`${rows} ${kind.toUpperCase()} rows written to ${path} in ${((Date.now() - t) / 1000).toFixed(1)} s`),
  );
}
