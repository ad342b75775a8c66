import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';

/*
 * Generators of large bulk files in each register's published shape, for the constant-memory
 * tests and benchmarks. Names recombine word parts of real companies in the fixtures; every
 * registration number is unique; files are written by streaming (never held in memory).
 */

const WORDS = [
  'SESAM',
  'STASJON',
  'MAGENTA',
  'GANYMEDE',
  'DANONE',
  'ONEFLARE',
  'ABBOTSFORD',
  'CHAMBER',
  'COMMERCE',
  'TIETGEN',
  'INVEST',
  'ASSURE',
  'WEALTH',
  'ALTERNATIVES',
  'NEWTON',
  'HUNSLET',
  'PEPPER',
  'ROMILEY',
  'SUNDAL',
  'COLLIER',
  'AGILYX',
  'GRUPPEN',
  'MIRANOVA',
  'FONDSMÆGLERSELSKAB',
  'SMIDTH',
  'FAMILIEBARNEHAGE',
  'NUMÉRIQUE',
  'HØRSHOLM',
  'MONTRÉAL',
  'VICTORIA',
];

export function companyName(i: number, suffix: string): string {
  const a = WORDS[i % WORDS.length];
  const b = WORDS[Math.floor(i / WORDS.length) % WORDS.length];
  return `${a} ${b} ${(i % 9973).toString(36).toUpperCase()} ${suffix}`;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function day(i: number): { d: string; m: string; y: string } {
  return { d: pad((i % 28) + 1, 2), m: pad((i % 12) + 1, 2), y: String(1950 + (i % 74)) };
}

async function writeAll(
  target: Sink,
  rows: number,
  head: string,
  line: (i: number) => string,
  tail: string,
  sep = '',
): Promise<void> {
  const { out, done } = target;
  if (!out.write(head)) await once(out, 'drain');
  const CHUNK = 2000;
  for (let start = 0; start < rows; start += CHUNK) {
    const parts: string[] = [];
    for (let i = start; i < Math.min(rows, start + CHUNK); i++) parts.push((i > 0 ? sep : '') + line(i));
    if (!out.write(parts.join(''))) await once(out, 'drain');
  }
  out.end(tail);
  await done;
}

interface Sink {
  out: Writable;
  /** Resolves when the file is closed on disk. */
  done: Promise<void>;
}

function sink(path: string, gzip = false): Sink {
  const file = createWriteStream(path, { highWaterMark: 1024 * 1024 });
  const done = new Promise<void>((resolve, reject) => {
    file.on('error', reject);
    file.on('close', resolve);
  });
  if (!gzip) return { out: file, done };
  const z = createGzip({ level: 1 });
  z.on('error', (e) => file.destroy(e));
  z.pipe(file);
  return { out: z, done };
}

const q = (v: string) => `"${v.replace(/"/g, '""')}"`;

/** Companies House BasicCompanyData: the real 55-column header, rows of the sample's shape. */
export async function generateGbCsv(path: string, rows: number, header: string): Promise<void> {
  await writeAll(
    sink(path),
    rows,
    `${header}\n`,
    (i) => {
      const { d, m, y } = day(i);
      const n = pad(i + 1, 8);
      return (
        [
          q(companyName(i, 'LIMITED')),
          q(n),
          q(''),
          q(''),
          q(`UNIT ${i % 97} NEWTON BUSINESS CENTRE`),
          q('NEWTON CHAMBERS ROAD'),
          q('SHEFFIELD'),
          q(''),
          q('UNITED KINGDOM'),
          q('S35 2PH'),
          q('Private Limited Company'),
          q(i % 10 === 0 ? 'Liquidation' : 'Active'),
          q('United Kingdom'),
          q(''),
          q(`${d}/${m}/${y}`),
          q('31'),
          q('7'),
          q('29/04/2022'),
          q(''),
          q('NO ACCOUNTS FILED'),
          q('26/08/2021'),
          q(''),
          q('0'),
          q('0'),
          q('0'),
          q('0'),
          q('78300 - Human resources provision and management of human resources functions'),
          q(''),
          q(''),
          q(''),
          q('0'),
          q('0'),
          q(`http://business.data.gov.uk/id/company/${n}`),
          ...Array.from({ length: 20 }, () => q('')),
          q('11/08/2021'),
          q(''),
        ].join(',') + '\n'
      );
    },
    '',
  );
}

export const FR_HEADER =
  'siren,statutDiffusionUniteLegale,unitePurgeeUniteLegale,dateCreationUniteLegale,sigleUniteLegale,sexeUniteLegale,prenom1UniteLegale,prenom2UniteLegale,prenom3UniteLegale,prenom4UniteLegale,prenomUsuelUniteLegale,pseudonymeUniteLegale,identifiantAssociationUniteLegale,trancheEffectifsUniteLegale,anneeEffectifsUniteLegale,dateDernierTraitementUniteLegale,nombrePeriodesUniteLegale,categorieEntreprise,anneeCategorieEntreprise,dateDebut,etatAdministratifUniteLegale,nomUniteLegale,nomUsageUniteLegale,denominationUniteLegale,denominationUsuelle1UniteLegale,denominationUsuelle2UniteLegale,denominationUsuelle3UniteLegale,categorieJuridiqueUniteLegale,activitePrincipaleUniteLegale,nomenclatureActivitePrincipaleUniteLegale,nicSiegeUniteLegale,economieSocialeSolidaireUniteLegale,societeMissionUniteLegale,caractereEmployeurUniteLegale';

/** Sirene StockUniteLegale: the stock's 34 columns. */
export async function generateFrCsv(path: string, rows: number): Promise<void> {
  const forms = ['5710', '5499', '6540', '5599', '1000'];
  await writeAll(
    sink(path),
    rows,
    `${FR_HEADER}\n`,
    (i) => {
      const { d, m, y } = day(i);
      const form = forms[i % forms.length];
      const person = form === '1000';
      return (
        [
          pad(100000000 + i, 9),
          'O',
          '',
          `${y}-${m}-${d}`,
          '',
          person ? 'M' : '',
          person ? 'JEAN' : '',
          '',
          '',
          '',
          '',
          '',
          '',
          'NN',
          '',
          '2024-03-22T14:26:06',
          '2',
          '',
          '',
          `${y}-${m}-${d}`,
          i % 7 === 0 ? 'C' : 'A',
          person ? WORDS[i % WORDS.length] : '',
          '',
          person ? '' : companyName(i, 'SAS'),
          '',
          '',
          '',
          form,
          '62.02A',
          'NAFRev2',
          '00015',
          'N',
          '',
          'N',
        ].join(',') + '\n'
      );
    },
    '',
  );
}

/** Brønnøysund /enheter/lastned: a gzipped JSON array of Enhet objects of the API's shape. */
export async function generateNoJsonGz(path: string, rows: number): Promise<void> {
  await writeAll(
    sink(path, true),
    rows,
    '[\n',
    (i) => {
      const { d, m, y } = day(i);
      return JSON.stringify({
        organisasjonsnummer: String(800000000 + i),
        navn: companyName(i, 'AS'),
        organisasjonsform: { kode: 'AS', beskrivelse: 'Aksjeselskap' },
        registreringsdatoEnhetsregisteret: `${y}-${m}-${d}`,
        registrertIMvaregisteret: true,
        naeringskode1: { kode: '52.292', beskrivelse: 'Skipsmegling' },
        antallAnsatte: i % 50,
        forretningsadresse: {
          land: 'Norge',
          landkode: 'NO',
          postnummer: '0101',
          poststed: 'OSLO',
          adresse: [`Tyvholmen ${i % 99}`],
          kommune: 'OSLO',
          kommunenummer: '0301',
        },
        stiftelsesdato: `${y}-${m}-${d}`,
        registrertIForetaksregisteret: true,
        konkurs: i % 50 === 0,
        underAvvikling: false,
        underTvangsavviklingEllerTvangsopplosning: false,
        maalform: 'Bokmål',
      });
    },
    '\n]\n',
    ',\n',
  );
}

/** CVR scroll dump: one hit per line with a trimmed Vrvirksomhed document of the real shape. */
export async function generateDkJsonl(path: string, rows: number): Promise<void> {
  await writeAll(
    sink(path),
    rows,
    '',
    (i) => {
      const { d, m, y } = day(i);
      return (
        JSON.stringify({
          _index: 'cvr-v-20220630',
          _id: String(4000000000 + i),
          _source: {
            Vrvirksomhed: {
              cvrNummer: 10000000 + i,
              reklamebeskyttet: i % 3 === 0,
              virksomhedsstatus: [{ status: 'NORMAL', periode: { gyldigFra: `${y}-${m}-${d}`, gyldigTil: null } }],
              livsforloeb: [{ periode: { gyldigFra: `${y}-${m}-${d}`, gyldigTil: null } }],
              virksomhedMetadata: {
                nyesteNavn: { navn: companyName(i, 'ApS'), periode: { gyldigFra: `${y}-${m}-${d}`, gyldigTil: null } },
                nyesteVirksomhedsform: {
                  virksomhedsformkode: 80,
                  kortBeskrivelse: 'APS',
                  langBeskrivelse: 'Anpartsselskab',
                },
                nyesteBeliggenhedsadresse: {
                  landekode: 'DK',
                  vejnavn: 'Pilestræde',
                  husnummerFra: 1 + (i % 90),
                  etage: '3',
                  postnummer: 1112,
                  postdistrikt: 'København K',
                },
                sammensatStatus: 'NORMAL',
                stiftelsesDato: `${y}-${m}-${d}`,
              },
            },
          },
        }) + '\n'
      );
    },
    '',
  );
}

/** ABR ABN bulk extract: one-line <ABR> records under <Transfer>. */
export async function generateAbnXml(path: string, rows: number): Promise<void> {
  await writeAll(
    sink(path),
    rows,
    '<?xml version="1.0" encoding="UTF-8"?>\n<Transfer><TransferInfo><FileSequenceNumber>1</FileSequenceNumber><RecordCount>' +
      rows +
      '</RecordCount><ExtractTime>2025-05-28T02:10:00</ExtractTime></TransferInfo>\n',
    (i) => {
      const { d, m, y } = day(i);
      const abn = String(10000000000 + i);
      const acn = pad(100000000 + i, 9);
      return `<ABR recordLastUpdatedDate="${y}${m}${d}" replaced="N"><ABN status="${i % 5 === 0 ? 'CAN' : 'ACT'}" ABNStatusFromDate="${y}${m}${d}">${abn}</ABN><EntityType><EntityTypeInd>PRV</EntityTypeInd><EntityTypeText>Australian Private Company</EntityTypeText></EntityType><MainEntity><NonIndividualName type="MN"><NonIndividualNameText>${companyName(i, 'PTY LTD')}</NonIndividualNameText></NonIndividualName><BusinessAddress><AddressDetails><State>NSW</State><Postcode>2000</Postcode></AddressDetails></BusinessAddress></MainEntity><ASICNumber ASICNumberType="undetermined">${acn}</ASICNumber><GST status="ACT" GSTStatusFromDate="${y}${m}${d}" /></ABR>\n`;
    },
    '</Transfer>\n',
  );
}

export const ASIC_HEADER = [
  'Company Name',
  'ACN',
  'Type',
  'Class',
  'Sub Class',
  'Status',
  'Date of Registration',
  'Date of Deregistration',
  'Previous State of Registration',
  'State Registration number',
  'Modified since last report',
  'Current Name Indicator',
  'ABN',
  'Current Name',
  'Current Name Start Date',
].join('\t');

/** ASIC company dataset, tab-delimited; every tenth row a former-name row. */
export async function generateAsicTsv(path: string, rows: number): Promise<void> {
  const statuses = ['REGD', 'REGD', 'REGD', 'DRGD', 'EXAD', 'SOFF'];
  await writeAll(
    sink(path),
    rows,
    `${ASIC_HEADER}\n`,
    (i) => {
      const { d, m, y } = day(i);
      const former = i % 10 === 9;
      return (
        [
          companyName(i, 'PTY LTD'),
          pad(100000000 + i, 9),
          'APTY',
          'LMSH',
          'PROP',
          statuses[i % statuses.length],
          `${d}/${m}/${y}`,
          '',
          '',
          '',
          '',
          former ? 'N' : 'Y',
          String(20000000000 + i),
          former ? companyName(i + 1, 'PTY LTD') : '',
          '',
        ].join('\t') + '\n'
      );
    },
    '',
  );
}

/** Corporations Canada OPEN_DATA_n.xml: <cc:corpcan><corporations><corporation> (compact, one per line). */
export async function generateCaXml(path: string, rows: number): Promise<void> {
  await writeAll(
    sink(path),
    rows,
    '<?xml version="1.0" encoding="UTF-8"?>\n<cc:corpcan xmlns:cc="http://www.ic.gc.ca/corpcan" reportId="OPEN_DATA" date="2024-09-10T05:00:00"><corporations>\n',
    (i) => {
      const { d, m, y } = day(i);
      const status = [1, 1, 1, 11, 9, 3][i % 6];
      return `<corporation corporationId="${10000000 + i}"><acts><act code="6" current="true" effectiveDate="${y}-${m}-${d}T00:00:00"/></acts><statuses><status code="${status}" current="true" effectiveDate="${y}-${m}-${d}T00:00:00"/></statuses><activities><activity code="1" date="${y}-${m}-${d}T16:44:02"/></activities><names><name code="1" current="true" effectiveDate="${y}-${m}-${d}T00:00:00">${companyName(i, 'INC.')}</name></names><addresses><address code="2" current="true" effectiveDate="${y}-${m}-${d}T00:00:00"><addressLine>751 Rue du Square-Victoria</addressLine><city>Montréal</city><province code="QC"/><country code="CA"/><postalCode>H2Y 2J3</postalCode></address></addresses><businessNumbers><businessNumber>${pad(700000000 + i, 9)}</businessNumber></businessNumbers></corporation>\n`;
    },
    '</corporations></cc:corpcan>\n',
  );
}
