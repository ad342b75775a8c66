import { z } from 'zod';
import { UpstreamError } from '../upstream-error';
import { categorieJuridiqueLabel } from './categories-juridiques';
import { formatFrenchAddress, FrRecord, isoDate, sireneStatus } from './recherche-entreprises-parsers';
import { lookupTable } from '../../platform/lookup-table';

/*
 * INSEE API Sirene 3.11: `/siren/{siren}` (unité légale with its periods), `/siret/{siret}`
 * (établissement with the current values of its unité légale embedded) and `/siret?q=`.
 * Non-diffusible values come as "[ND]" and are read as absent.
 */

const text = z.string().nullish();

/** Fields INSEE gives both at unit level (`/siret` embedding) and per period (`/siren`). */
const uniteFields = {
  etatAdministratifUniteLegale: text,
  denominationUniteLegale: text,
  nomUniteLegale: text,
  nomUsageUniteLegale: text,
  prenom1UniteLegale: text,
  prenomUsuelUniteLegale: text,
  categorieJuridiqueUniteLegale: text,
  dateCreationUniteLegale: text,
  nicSiegeUniteLegale: text,
};
const uniteCourante = z.object(uniteFields);
type UniteCourante = z.infer<typeof uniteCourante>;

const sirenBody = z.object({
  uniteLegale: z.object({
    siren: z.string().regex(/^\d{9}$/),
    dateCreationUniteLegale: text,
    prenom1UniteLegale: text,
    prenomUsuelUniteLegale: text,
    periodesUniteLegale: z.array(z.object({ dateFin: text, ...uniteFields })).min(1),
  }),
});

const adresse = z.object({
  complementAdresseEtablissement: text,
  numeroVoieEtablissement: text,
  indiceRepetitionEtablissement: text,
  typeVoieEtablissement: text,
  libelleVoieEtablissement: text,
  distributionSpecialeEtablissement: text,
  codePostalEtablissement: text,
  libelleCommuneEtablissement: text,
  codeCedexEtablissement: text,
  libelleCedexEtablissement: text,
  libelleCommuneEtrangerEtablissement: text,
  libellePaysEtrangerEtablissement: text,
});
type Adresse = z.infer<typeof adresse>;

const etablissement = z.object({
  siren: z.string().regex(/^\d{9}$/),
  siret: z.string().regex(/^\d{14}$/),
  uniteLegale: uniteCourante,
  adresseEtablissement: adresse.nullish(),
});
type Etablissement = z.infer<typeof etablissement>;

/** The unit of `/siren/{siren}`, its current period (dateFin null) and the NIC of its head office. */
export function parseInseeSiren(body: unknown): { record: FrRecord; nicSiege: string | null } {
  const parsed = sirenBody.safeParse(body);
  if (!parsed.success) throw UpstreamError.invalidResponse('INSEE sent a unit without siren or periods');
  const u = parsed.data.uniteLegale;
  const current = u.periodesUniteLegale.find((p) => p.dateFin == null) ?? u.periodesUniteLegale[0];
  const merged: UniteCourante = {
    ...current,
    prenom1UniteLegale: u.prenom1UniteLegale,
    prenomUsuelUniteLegale: u.prenomUsuelUniteLegale,
    dateCreationUniteLegale: u.dateCreationUniteLegale,
  };
  return { record: toRecord(u.siren, merged, null), nicSiege: nd(current.nicSiegeUniteLegale) };
}

/** The establishment of `/siret/{siret}`: its unit (current values) at this establishment's address. */
export function parseInseeSiret(body: unknown): FrRecord {
  const parsed = z.object({ etablissement }).safeParse(body);
  if (!parsed.success) throw UpstreamError.invalidResponse('INSEE sent an establishment without siret or unit');
  return fromEtablissement(parsed.data.etablissement);
}

/**
 * The establishments of a `/siret?q=` search (head offices, one per unit), each read on its
 * own: one that cannot be read is left out rather than failing the answer, else the change feed
 * would read the same page again forever. Left out: a unit under partial diffusion whose name is
 * not public (a natural person, "[ND]"), as the stock file reader skips it, and an establishment
 * without a 9-digit siren, a 14-digit siret or any name.
 */
export function parseInseeSiretSearch(body: unknown): FrRecord[] {
  const parsed = z.object({ etablissements: z.array(z.unknown()) }).safeParse(body);
  if (!parsed.success) throw UpstreamError.invalidResponse('INSEE sent a search answer without etablissements');
  return parsed.data.etablissements.flatMap((item) => {
    const e = etablissement.safeParse(item);
    return e.success && nameOf(e.data.uniteLegale) ? [fromEtablissement(e.data)] : [];
  });
}

/** The head office's address of a `/siret/{siret}` answer, to complete a `/siren` read. */
export function parseInseeAddress(body: unknown): { address: string | null; city: string | null } {
  const parsed = z.object({ etablissement: z.object({ adresseEtablissement: adresse.nullish() }) }).safeParse(body);
  if (!parsed.success) throw UpstreamError.invalidResponse('INSEE sent an establishment without an address block');
  return addressOf(parsed.data.etablissement.adresseEtablissement ?? null);
}

function fromEtablissement(e: Etablissement): FrRecord {
  const record = toRecord(e.siren, e.uniteLegale, e.adresseEtablissement ?? null);
  return { ...record, extra: { ...record.extra, siret: e.siret } };
}

/** A legal person's denomination, else a natural person's first name and surname; null when neither is public. */
function nameOf(u: UniteCourante): string | null {
  const person = [
    nd(u.prenomUsuelUniteLegale) ?? nd(u.prenom1UniteLegale),
    nd(u.nomUsageUniteLegale) ?? nd(u.nomUniteLegale),
  ]
    .filter(Boolean)
    .join(' ');
  return nd(u.denominationUniteLegale) ?? (person || null);
}

function toRecord(siren: string, u: UniteCourante, a: Adresse | null): FrRecord {
  const name = nameOf(u);
  if (!name) throw UpstreamError.invalidResponse(`INSEE sent unit ${siren} without a name`);
  return {
    name,
    registrationNumber: siren,
    country: 'FR',
    ...sireneStatus(nd(u.etatAdministratifUniteLegale)),
    legalForm: categorieJuridiqueLabel(nd(u.categorieJuridiqueUniteLegale)),
    ...addressOf(a),
    incorporationDate: isoDate(nd(u.dateCreationUniteLegale)),
    extra: { categorieJuridique: nd(u.categorieJuridiqueUniteLegale) },
  };
}

function addressOf(a: Adresse | null): { address: string | null; city: string | null } {
  if (!a) return { address: null, city: null };
  const typeVoie = nd(a.typeVoieEtablissement);
  return {
    address: formatFrenchAddress({
      complement: nd(a.complementAdresseEtablissement),
      numero: nd(a.numeroVoieEtablissement),
      indice: nd(a.indiceRepetitionEtablissement),
      typeVoie: typeVoie ? (TYPES_VOIE[typeVoie] ?? typeVoie) : null,
      libelleVoie: nd(a.libelleVoieEtablissement),
      distributionSpeciale: nd(a.distributionSpecialeEtablissement),
      codePostal: nd(a.codePostalEtablissement),
      commune: nd(a.libelleCommuneEtablissement),
      cedex: nd(a.codeCedexEtablissement),
      libelleCedex: nd(a.libelleCedexEtablissement),
      communeEtranger: nd(a.libelleCommuneEtrangerEtablissement),
      paysEtranger: nd(a.libellePaysEtrangerEtablissement),
    }),
    city: nd(a.libelleCommuneEtablissement) ?? nd(a.libelleCommuneEtrangerEtablissement),
  };
}

/** "[ND]" (non diffusible) and blanks are absent values. */
function nd(value: string | null | undefined): string | null {
  const v = value?.trim();
  return v && v !== '[ND]' ? v : null;
}

/** INSEE's street-type codes, spelt out as recherche-entreprises spells them ("AV" → "AVENUE"). */
const TYPES_VOIE: Readonly<Record<string, string>> = lookupTable({
  ALL: 'ALLÉE',
  AV: 'AVENUE',
  BD: 'BOULEVARD',
  CAR: 'CARREFOUR',
  CHE: 'CHEMIN',
  CHEM: 'CHEMINEMENT',
  CHS: 'CHAUSSÉE',
  COR: 'CORNICHE',
  CRS: 'COURS',
  DOM: 'DOMAINE',
  DSC: 'DESCENTE',
  ECA: 'ÉCART',
  ESP: 'ESPLANADE',
  FG: 'FAUBOURG',
  GR: 'GRANDE RUE',
  HAM: 'HAMEAU',
  HLE: 'HALLE',
  IMP: 'IMPASSE',
  LD: 'LIEU DIT',
  LOT: 'LOTISSEMENT',
  MAR: 'MARCHÉ',
  MTE: 'MONTÉE',
  PAS: 'PASSAGE',
  PL: 'PLACE',
  PLN: 'PLAINE',
  PLT: 'PLATEAU',
  PRO: 'PROMENADE',
  PRV: 'PARVIS',
  QUA: 'QUARTIER',
  RES: 'RÉSIDENCE',
  RLE: 'RUELLE',
  ROC: 'ROCADE',
  RPT: 'ROND POINT',
  RTE: 'ROUTE',
  SEN: 'SENTIER',
  SQ: 'SQUARE',
  TPL: 'TERRE-PLEIN',
  TRA: 'TRAVERSE',
  VLA: 'VILLA',
  VLGE: 'VILLAGE',
  ZA: 'ZONE ARTISANALE',
  ZAC: "ZONE D'AMÉNAGEMENT CONCERTÉ",
  ZAD: "ZONE D'AMÉNAGEMENT DIFFÉRÉ",
  ZI: 'ZONE INDUSTRIELLE',
});
