import { normalizeName } from '../../src/dataset/normalize-name';
import { FakeRegister, FakeResponse, fixture } from './fake-register';

const F = 'registers/cz';

/** Asseco Central Europe, a.s.: recorded subject, no recorded VR record (VR answers NENALEZENO here). */
export const CZ_ASSECO = '27074358';
/** SAD s.r.o.: recorded subject and VR record (officers); `…-derived-zanikly` is its ceased version. */
export const CZ_SAD = '25063677';
/** HELLA AUTOTECHNIK NOVA, s.r.o.: recorded subject and VR record (an IČO whose check digit is the r = 0 edge case). */
export const CZ_HELLA = '25834151';
/** A sole trader: recorded subject, not in VR (no VR request is made). */
export const CZ_SOLE_TRADER = '01603094';
/** A valid IČO the fake answers NENALEZENO for: the recorded not-found answer's own request. */
export const CZ_UNKNOWN = '25596641';
/** The name the fake refuses as too broad, as ARES refuses a search matching more than 1,000 subjects. */
export const CZ_TOO_BROAD = 'servis';

const SUBJECTS: Record<string, string> = {
  [CZ_ASSECO]: 'ares-ekonomicke-subjekty-ico-27074358-asseco.json',
  [CZ_SAD]: 'ares-ekonomicke-subjekty-ico-25063677-sad-sro.json',
  [CZ_HELLA]: 'ares-ekonomicke-subjekty-ico-25834151-hella.json',
  [CZ_SOLE_TRADER]: 'ares-ekonomicke-subjekty-ico-01603094-fyzicka-osoba.json',
  // The probe reads Ministerstvo financí (00006947) and checks only the shape: no recorded
  // subject of it exists, so Asseco's recorded subject answers at that path.
  '00006947': 'ares-ekonomicke-subjekty-ico-27074358-asseco.json',
};
const VR: Record<string, string> = {
  [CZ_SAD]: 'ares-ekonomicke-subjekty-vr-ico-25063677-sad-sro.json',
  [CZ_HELLA]: 'ares-ekonomicke-subjekty-vr-ico-25834151-hella.json',
};
const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' };
const NOT_FOUND: FakeResponse = { status: 404, fixture: `${F}/ares-error-404-nenalezeno.json` };

/**
 * ARES on loopback, replaying the recorded responses of test/fixtures/registers/cz (see its
 * MANIFEST.md) at the paths the CZ connector and notification feed read:
 * - GET /ekonomicke-subjekty/{ico}: the recorded subjects above, NENALEZENO for any other IČO;
 * - GET /ekonomicke-subjekty-vr/{ico}: the recorded VR records of SAD and HELLA, NENALEZENO otherwise;
 * - POST /ekonomicke-subjekty/vyhledat: the subjects of the derived search page whose folded
 *   name holds the folded `obchodniJmeno` (no real page with several hits was recorded, so the
 *   page is cut to the hits here), NENALEZENO when none does, and the 400 ARES gives a name
 *   matching more than 1,000 subjects for "servis";
 * - the notification feed: the recorded vr batch list (671, 680), NENALEZENO for the other
 *   sources' lists, and the two derived vr batches.
 */
export function routeFakeCzRegister(fake: FakeRegister): void {
  fake.get(/^\/ekonomicke-subjekty\/[^/]+$/, (req) => {
    const file = SUBJECTS[req.path.split('/').pop()!];
    return file ? { fixture: `${F}/${file}` } : NOT_FOUND;
  });
  fake.get(/^\/ekonomicke-subjekty-vr\/[^/]+$/, (req) => {
    const file = VR[req.path.split('/').pop()!];
    return file ? { fixture: `${F}/${file}` } : NOT_FOUND;
  });
  fake.post('/ekonomicke-subjekty/vyhledat', (req) => searchAnswer(req.body));
  fake.post('/ekonomicke-subjekty-notifikace/vyhledat', (req) =>
    (JSON.parse(req.body) as { datovyZdroj?: string }).datovyZdroj === 'vr'
      ? { fixture: `${F}/ares-ekonomicke-subjekty-notifikace-vyhledat-vr-trimmed-2-batches.json` }
      : NOT_FOUND,
  );
  for (const batch of [671, 680])
    fake.get(`/ekonomicke-subjekty-notifikace/datovy-zdroj/vr/cislo-davky/${batch}`, {
      fixture: `${F}/ares-ekonomicke-subjekty-notifikace-davka-vr-${batch}-derived.json`,
    });
}

function searchAnswer(body: string): FakeResponse {
  const name = normalizeName(String((JSON.parse(body) as { obchodniJmeno?: unknown }).obchodniJmeno ?? ''));
  if (name === CZ_TOO_BROAD)
    return {
      status: 400,
      fixture: `${F}/ares-error-400-vystup-prilis-mnoho-vysledku-constructed-from-third-party-tests.json`,
    };
  const page = JSON.parse(fixture(`${F}/ares-ekonomicke-subjekty-vyhledat-derived-3-hits.json`)) as {
    ekonomickeSubjekty: Array<{ obchodniJmeno: string }>;
  };
  const hits = page.ekonomickeSubjekty.filter((s) => name !== '' && normalizeName(s.obchodniJmeno).includes(name));
  if (hits.length === 0) return NOT_FOUND;
  return { body: JSON.stringify({ pocetCelkem: hits.length, ekonomickeSubjekty: hits }), headers: JSON_HEADERS };
}
