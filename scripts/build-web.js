#!/usr/bin/env node
// Builds the public pages into dist/public (run by `npm run build`, after tsc):
//   dist/public/<page>.html        web/layout.html around web/<page>/content.html
//   dist/public/assets/<page>.js   web/<page>/main.ts bundled, minified, ES2020
//   dist/public/assets/styles.css  web/styles.css minified
// The list of pages is src/web/web-pages.ts, read from tsc's output so there is one list.
// Type-checking is tsc's job (web/tsconfig.json); esbuild only strips types.
const { readFileSync, writeFileSync, mkdirSync, rmSync, statSync } = require('node:fs');
const { join } = require('node:path');
const esbuild = require('esbuild');

const root = join(__dirname, '..');
const { WEB_PAGES, WEB_OUT_DIR } = require(join(root, 'dist', 'web', 'web-pages.js'));
const { COUNTRY_CODES, countryList } = require(join(root, 'dist', 'registers', 'registers.js'));
const web = join(root, 'web');
const out = join(root, WEB_OUT_DIR);

const escapeHtml = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

async function main() {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, 'assets'), { recursive: true });

  await esbuild.build({
    entryPoints: [
      ...WEB_PAGES.map((p) => ({ in: join(web, p.name, 'main.ts'), out: p.name })),
      { in: join(web, 'styles.css'), out: 'styles' },
    ],
    outdir: join(out, 'assets'),
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    charset: 'utf8',
    legalComments: 'none',
    // The register list's countries (the simulator's country choice): the service's one list.
    define: { __COUNTRY_CODES__: JSON.stringify(COUNTRY_CODES) },
    logLevel: 'warning',
  });

  // The countries the pages name, from the service's one list (a page once said "six" when there were nine).
  const NUMBER_WORDS = [
    'no',
    'one',
    'two',
    'three',
    'four',
    'five',
    'six',
    'seven',
    'eight',
    'nine',
    'ten',
    'eleven',
    'twelve',
  ];
  const countries = {
    '{{countries}}': countryList('and'),
    '{{countryCount}}': NUMBER_WORDS[COUNTRY_CODES.length] ?? String(COUNTRY_CODES.length),
  };
  const withCountries = (text) =>
    Object.entries(countries).reduce((t, [mark, value]) => t.split(mark).join(escapeHtml(value)), text);
  const layout = withCountries(readFileSync(join(web, 'layout.html'), 'utf8'));
  for (const page of WEB_PAGES) {
    const nav = WEB_PAGES.map(
      (p) =>
        `        <li><a href="${escapeHtml(p.path)}"${p === page ? ' aria-current="page"' : ''}>${escapeHtml(p.nav)}</a></li>`,
    ).join('\n');
    const html = layout
      .replace('{{title}}', escapeHtml(page.title))
      .replace('{{name}}', escapeHtml(page.name))
      .replace('{{nav}}', nav)
      .replace('{{content}}', withCountries(readFileSync(join(web, page.name, 'content.html'), 'utf8').trim()));
    writeFileSync(join(out, `${page.name}.html`), html);
  }

  const size = (file) => `${(statSync(join(out, file)).size / 1024).toFixed(1)} kB`;
  const files = [...WEB_PAGES.map((p) => `assets/${p.name}.js`), 'assets/styles.css'];
  console.log(
    `web: ${WEB_PAGES.length} page${WEB_PAGES.length === 1 ? '' : 's'} into ${WEB_OUT_DIR} (${files.map((f) => `${f} ${size(f)}`).join(', ')})`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
