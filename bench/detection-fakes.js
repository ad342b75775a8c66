'use strict';
// Fake registers for the detection benchmark: each answers for any number it is asked about
// with a recorded answer (test/fixtures/registers) whose identity fields are replaced by that
// number, and a "changed" version (the name) for the numbers marked changed. Their change
// feeds name the changed companies once `flip()` has been called. Requests are counted per
// register.
const { readFileSync } = require('node:fs');
const { createServer } = require('node:http');
const { join } = require('node:path');

const F = join(__dirname, '..', 'test', 'fixtures', 'registers');
const text = (p) => readFileSync(join(F, p), 'utf8');
const json = (p) => JSON.parse(text(p));

// ---- valid registration numbers (the watches API checks them) ----
function noOrgnr(i) {
  for (let n = 900_000_00 + i * 3; ; n++) {
    const d = String(n).padStart(8, '0').split('').map(Number);
    const r = 11 - (d.reduce((s, x, k) => s + x * [3, 2, 7, 6, 5, 4, 3, 2][k], 0) % 11);
    if (r === 10) continue;
    return `${d.join('')}${r === 11 ? 0 : r}`;
  }
}
function luhnDigit(base) {
  let sum = 0;
  const digits = base.split('').map(Number).reverse();
  digits.forEach((d, k) => {
    let v = k % 2 === 0 ? d * 2 : d;
    if (v > 9) v -= 9;
    sum += v;
  });
  return String((10 - (sum % 10)) % 10);
}
const frSiren = (i) => {
  const base = String(30_000_000 + i);
  return base + luhnDigit(base);
};
function dkCvr(i) {
  for (let n = 3_000_000 + i * 2; ; n++) {
    const d = String(n).split('').map(Number);
    const s = d.reduce((a, x, k) => a + x * [2, 7, 6, 5, 4, 3, 2][k], 0);
    const c = (11 - (s % 11)) % 11;
    if (c === 10) continue;
    return `${n}${c}`;
  }
}
function auAbn(i) {
  const base = String(100_000_000 + i * 7).slice(-9);
  const w = [3, 5, 7, 9, 11, 13, 15, 17, 19];
  const s = base.split('').reduce((a, x, k) => a + Number(x) * w[k], 0);
  for (let p = 10; p <= 99; p++) if (((Math.floor(p / 10) - 1) * 10 + (p % 10) + s) % 89 === 0) return `${p}${base}`;
  return null;
}
const gbNumber = (i) => `1${String(i).padStart(7, '0')}`;
const caNumber = (i) => `2${String(i).padStart(7, '0')}`;

const NUMBERS = { NO: noOrgnr, GB: gbNumber, FR: frSiren, DK: dkCvr, AU: auAbn, CA: caNumber };

// ---- templates: the recorded answer for a number, as it is or renamed ----
const T = {
  NO: json('no/brreg-enhet-883603362-extracted-from-asa-search.json'),
  GB: json('gb/ch-company-profile-08957400.json'),
  FR: json('fr/insee-sirene-siret-search-siege-derived-from-siret.json'),
  FR_SIREN: json('fr/insee-sirene-siren-130025265-derived-from-siret.json'),
  DK: json('dk/cvr-es-virksomhed-by-cvr-25052943-magenta-aps.json'),
  AU: JSON.parse(text('au/abr-json-abndetails-26154482283-oneflare-active.jsonp').trim().slice('callback('.length, -1)),
  CA: json('ca/corpcan-api-corporation-1007-constructed-from-docs.json'),
};
const nameOf = (cc, n, changed) => `BENCH ${cc} ${n}${changed ? ' RENAMED' : ''}`;

const body = {
  NO: (n, c) => ({ ...T.NO, organisasjonsnummer: n, navn: nameOf('NO', n, c) }),
  GB: (n, c) => ({ ...T.GB, company_number: n, company_name: nameOf('GB', n, c) }),
  FR: (n, c) => frEtab(n, c),
  DK: (n, c) => dkDoc(n, c),
  AU: (n, c) => ({ ...T.AU, Abn: n, Acn: n.slice(2), EntityName: nameOf('AU', n, c) }),
  CA: (n, c) => [
    {
      ...T.CA[0],
      corporationId: n,
      businessNumbers: {},
      corporationNames: [
        {
          CorporationName: {
            name: nameOf('CA', n, c),
            nameType: 'Primary',
            current: true,
            effectiveDate: '1995-02-06',
          },
        },
      ],
    },
    null,
  ],
};
function frEtab(n, c) {
  const e = structuredClone(T.FR.etablissements[0]);
  e.siren = n;
  e.siret = `${n}00013`;
  e.uniteLegale.denominationUniteLegale = nameOf('FR', n, c);
  return e;
}
function dkDoc(n, c) {
  const hit = structuredClone(T.DK.hits.hits[0]);
  const v = hit._source.Vrvirksomhed;
  v.cvrNummer = Number(n);
  v.virksomhedMetadata.nyesteNavn.navn = nameOf('DK', n, c);
  v.sidstOpdateret = c ? '2026-11-22T12:30:00.000+01:00' : v.sidstOpdateret;
  return hit;
}
const esAnswer = (hits) => ({ ...T.DK, hits: { total: hits.length, max_score: null, hits } });

class Fakes {
  constructor() {
    this.changed = { NO: new Set(), GB: new Set(), FR: new Set(), DK: new Set(), AU: new Set(), CA: new Set() };
    this.flipped = false;
    this.calls = {};
    /** With `trackReads`: the times each company's record was read, per register and number. */
    this.trackReads = false;
    this.reads = {};
    this.servers = [];
    this.streams = new Set();
    this.env = {};
  }

  count(cc, n) {
    this.calls[cc] = (this.calls[cc] ?? 0) + 1;
    if (this.trackReads && n) ((this.reads[cc] ??= {})[n] ??= []).push(Date.now());
  }

  /** From now on the marked companies answer renamed, and the feeds name them. */
  flip() {
    this.flipped = true;
    this.gbEvents = [...this.changed.GB].map((n, k) => ({ timepoint: 1000 + k, n }));
    for (const res of this.streams) for (const e of this.gbEvents) res.write(gbLine(e));
  }

  isChanged(cc, n) {
    return this.flipped && this.changed[cc].has(n);
  }

  async start() {
    const serve = async (key, handler) => {
      const server = createServer((req, res) => {
        const chunks = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', () => {
          const url = new URL(req.url, 'http://fake');
          try {
            handler(url, Buffer.concat(chunks).toString('utf8'), res, req);
          } catch (err) {
            res.writeHead(500).end(String(err));
          }
        });
      });
      await new Promise((r) => server.listen(0, '127.0.0.1', r));
      this.servers.push(server);
      this.env[`REGISTER_${key}_URL`] = `http://127.0.0.1:${server.address().port}`;
    };
    const send = (res, obj, type = 'application/json') =>
      res.writeHead(200, { 'Content-Type': type }).end(typeof obj === 'string' ? obj : JSON.stringify(obj));

    await serve('NO_API', (url, _b, res) => {
      this.count('NO');
      const m = /^\/enheter\/(\d{9})$/.exec(url.pathname);
      if (m) return send(res, body.NO(m[1], this.isChanged('NO', m[1])));
      if (url.pathname === '/oppdateringer/enheter') {
        const from = Number(url.searchParams.get('oppdateringsid') ?? 0);
        const items = this.flipped
          ? [...this.changed.NO].map((n, k) => ({
              oppdateringsid: 1000 + k,
              dato: '2026-11-22T12:00:00.000Z',
              organisasjonsnummer: n,
              endringstype: 'Endring',
            }))
          : [];
        const page = items
          .filter((i) => i.oppdateringsid >= from)
          .slice(0, Number(url.searchParams.get('size') ?? 1000));
        return send(
          res,
          page.length ? { _embedded: { oppdaterteEnheter: page }, page: { size: page.length } } : { page: { size: 0 } },
        );
      }
      res.writeHead(404).end('{}');
    });
    await serve('GB_API', (url, _b, res) => {
      this.count('GB');
      const m = /^\/company\/(\w+)$/.exec(url.pathname);
      if (m) return send(res, body.GB(m[1], this.isChanged('GB', m[1])));
      res.writeHead(404).end('{}');
    });
    await serve('GB_STREAM', (url, _b, res) => {
      this.count('GB');
      if (process.env.BENCH_DEBUG)
        console.log(`stream connection at ${new Date().toISOString()} timepoint=${url.searchParams.get('timepoint')}`);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('\n');
      const after = Number(url.searchParams.get('timepoint') ?? 0);
      for (const e of this.gbEvents ?? []) if (e.timepoint >= after) res.write(gbLine(e));
      this.streams.add(res);
      const beat = setInterval(() => res.write('\n'), 5_000);
      // The response closes with the connection (the request's own 'close' comes as soon as its body was read).
      res.on('close', () => {
        clearInterval(beat);
        this.streams.delete(res);
      });
    });
    await serve('FR_API', (url, _b, res) => {
      this.count('FR');
      const q = url.searchParams.get('q') ?? '';
      const siren = /^siren:(\d{9}) /.exec(q);
      if (siren) return send(res, { ...T.FR, etablissements: [frEtab(siren[1], this.isChanged('FR', siren[1]))] });
      if (q.startsWith('(dateDernierTraitement')) {
        const all = this.flipped ? [...this.changed.FR] : [];
        const cursor = url.searchParams.get('curseur') ?? '*';
        const start = cursor === '*' ? 0 : Number(cursor);
        const page = all.slice(start, start + 1000);
        if (!page.length) return res.writeHead(404).end('{"header":{"statut":404,"message":"Aucun élément trouvé"}}');
        const next = start + page.length < all.length ? String(start + page.length) : cursor;
        return send(res, {
          header: { statut: 200, total: all.length, nombre: page.length, curseur: cursor, curseurSuivant: next },
          etablissements: page.map((n) => frEtab(n, true)),
        });
      }
      const m = /^\/siren\/(\d{9})$/.exec(url.pathname);
      if (m) return send(res, { ...T.FR_SIREN, uniteLegale: { ...T.FR_SIREN.uniteLegale, siren: m[1] } });
      res.writeHead(404).end('{}');
    });
    await serve('DK_API', (_url, b, res) => {
      this.count('DK');
      const q = JSON.parse(b || '{}');
      const cvr = q.query?.term?.['Vrvirksomhed.cvrNummer'];
      if (cvr !== undefined) {
        const n = String(cvr).padStart(8, '0');
        return send(res, esAnswer([dkDoc(n, this.isChanged('DK', n))]));
      }
      if (q.query?.range) {
        const all = this.flipped ? [...this.changed.DK] : [];
        const page = all.slice(q.from ?? 0, (q.from ?? 0) + (q.size ?? 1000));
        return send(res, esAnswer(page.map((n) => dkDoc(n, true))));
      }
      send(res, esAnswer([]));
    });
    await serve('AU_API', (url, _b, res) => {
      const abn = url.searchParams.get('abn') ?? '';
      this.count('AU', abn);
      send(res, `callback(${JSON.stringify(body.AU(abn, this.isChanged('AU', abn)))})`, 'text/javascript');
    });
    await serve('CA_API', (url, _b, res) => {
      const m = /^\/api\/corporations\/(\d+)\.json$/.exec(url.pathname);
      this.count('CA', m?.[1]);
      if (m) return send(res, body.CA(m[1], this.isChanged('CA', m[1])));
      res.writeHead(404).end('{}');
    });
    return this;
  }

  async stop() {
    for (const res of this.streams) res.destroy();
    await Promise.all(this.servers.map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))));
  }
}

function gbLine(e) {
  return `${JSON.stringify({ resource_kind: 'company-profile', resource_uri: `/company/${e.n}`, resource_id: e.n, data: body.GB(e.n, true), event: { timepoint: e.timepoint, published_at: '2026-11-22T12:00:00', type: 'changed' } })}\n`;
}

module.exports = { Fakes, NUMBERS, body, esAnswer, T };
