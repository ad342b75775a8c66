import { z } from 'zod';
import type { CompanyRecord, Officer, StatusCategory } from '../connector';
import { UpstreamError } from '../upstream-error';
import { categorieJuridiqueLabel } from './categories-juridiques';

/** What a parsed French unit carries before provenance is added. */
export type FrRecord = Omit<CompanyRecord, 'source'>;

const text = z.string().nullish();

const siege = z.object({
  siret: text,
  adresse: text,
  numero_voie: text,
  dernier_numero_voie: text,
  indice_repetition: text,
  type_voie: text,
  libelle_voie: text,
  complement_adresse: text,
  distribution_speciale: text,
  code_postal: text,
  libelle_commune: text,
  cedex: text,
  libelle_cedex: text,
  libelle_commune_etranger: text,
  libelle_pays_etranger: text,
});

const dirigeant = z.object({
  type_dirigeant: text,
  nom: text,
  prenoms: text,
  denomination: text,
  siren: text,
  qualite: text,
});

const unite = z.object({
  siren: z.string().regex(/^\d{9}$/),
  nom_complet: text,
  nom_raison_sociale: text,
  etat_administratif: text,
  nature_juridique: text,
  date_creation: text,
  date_fermeture: text,
  siege: siege.nullish(),
  dirigeants: z.array(dirigeant).nullish(),
});
type Unite = z.infer<typeof unite>;

const searchBody = z.object({ results: z.array(z.unknown()), total_results: z.number().nullish() });

/** Sirene's administrative state of a legal unit, worded as INSEE words it: A = Active, C = Cessée. */
export function sireneStatus(etat: string | null | undefined): {
  status: string | null;
  statusCategory: StatusCategory;
} {
  if (etat === 'A') return { status: 'Active', statusCategory: 'active' };
  // Sirene has no liquidation state: C covers radiation, dissolution and a sole trader's end of activity.
  if (etat === 'C') return { status: 'Cessée', statusCategory: 'dissolved' };
  return { status: null, statusCategory: 'unknown' };
}

/** The units of a `/search` answer, in the mirror's order. */
export function parseRechercheEntreprises(body: unknown): Array<FrRecord & { officers: Officer[] | null }> {
  const parsed = searchBody.safeParse(body);
  if (!parsed.success) throw UpstreamError.invalidResponse('recherche-entreprises sent an answer without results');
  return parsed.data.results.map((item) => {
    const unit = unite.safeParse(item);
    if (!unit.success) throw UpstreamError.invalidResponse('recherche-entreprises sent a result without a valid siren');
    return { ...toRecord(unit.data), officers: unit.data.dirigeants ? parseDirigeants(unit.data.dirigeants) : null };
  });
}

function toRecord(u: Unite): FrRecord {
  const s = u.siege ?? null;
  // nom_raison_sociale is the legal name; it is null for a sole trader, whose nom_complet is the person's name.
  const name = u.nom_raison_sociale?.trim() || u.nom_complet?.trim();
  if (!name) throw UpstreamError.invalidResponse(`recherche-entreprises sent unit ${u.siren} without a name`);
  return {
    name,
    registrationNumber: u.siren,
    country: 'FR',
    ...sireneStatus(u.etat_administratif),
    legalForm: categorieJuridiqueLabel(u.nature_juridique),
    address: s ? (formatFrenchAddress(siegeAddress(s)) ?? (s.adresse?.trim() || null)) : null,
    city: s ? s.libelle_commune?.trim() || s.libelle_commune_etranger?.trim() || null : null,
    incorporationDate: isoDate(u.date_creation),
    extra: {
      natureJuridique: u.nature_juridique ?? null,
      siretSiege: s?.siret ?? null,
      ...(u.date_fermeture ? { dateFermeture: isoDate(u.date_fermeture) } : {}),
    },
  };
}

/**
 * Officers from `dirigeants` (current officers only, no dates): a natural person as
 * "Prénoms NOM", a legal person by its denomination; role = `qualite`. A dirigeant listed
 * without a qualité is kept with the list's own name, "Dirigeant".
 */
export function parseDirigeants(dirigeants: Array<z.infer<typeof dirigeant>>): Officer[] {
  const officers: Officer[] = [];
  for (const d of dirigeants) {
    const role = d.qualite?.trim() || 'Dirigeant';
    if (d.type_dirigeant === 'personne morale') {
      const name = d.denomination?.trim();
      if (name) officers.push({ name, role, kind: 'company', appointedOn: null, resignedOn: null });
      continue;
    }
    const name = [d.prenoms, d.nom]
      .map((p) => p?.trim())
      .filter(Boolean)
      .join(' ');
    if (name) officers.push({ name, role, kind: 'person', appointedOn: null, resignedOn: null });
  }
  return officers;
}

/** A French address in Sirene's structured fields (shared by the mirror and INSEE). */
export interface FrenchAddress {
  complement?: string | null;
  numero?: string | null;
  dernierNumero?: string | null;
  indice?: string | null;
  typeVoie?: string | null;
  libelleVoie?: string | null;
  distributionSpeciale?: string | null;
  codePostal?: string | null;
  commune?: string | null;
  cedex?: string | null;
  libelleCedex?: string | null;
  communeEtranger?: string | null;
  paysEtranger?: string | null;
}

/** "RES LES CAPUCINES BATD, 3 TRAVERSE DES PENITENTS NOIRS, 13600 LA CIOTAT": complement, street, postcode + commune (or CEDEX), country abroad. */
export function formatFrenchAddress(a: FrenchAddress): string | null {
  const t = (v: string | null | undefined) => v?.trim() || null;
  const numero = t(a.numero) ? [t(a.numero), t(a.dernierNumero)].filter(Boolean).join('-') : null;
  const street = [numero, t(a.indice), t(a.typeVoie), t(a.libelleVoie)].filter(Boolean).join(' ');
  const place = t(a.cedex)
    ? [t(a.cedex), t(a.libelleCedex)].filter(Boolean).join(' ')
    : [t(a.codePostal), t(a.commune) ?? t(a.communeEtranger)].filter(Boolean).join(' ');
  const lines = [t(a.complement), street || null, t(a.distributionSpeciale), place || null, t(a.paysEtranger)].filter(
    Boolean,
  );
  return lines.length ? lines.join(', ') : null;
}

function siegeAddress(s: z.infer<typeof siege>): FrenchAddress {
  return {
    complement: s.complement_adresse,
    numero: s.numero_voie,
    dernierNumero: s.dernier_numero_voie,
    indice: s.indice_repetition,
    typeVoie: s.type_voie,
    libelleVoie: s.libelle_voie,
    distributionSpeciale: s.distribution_speciale,
    codePostal: s.code_postal,
    commune: s.libelle_commune,
    cedex: s.cedex,
    libelleCedex: s.libelle_cedex,
    communeEtranger: s.libelle_commune_etranger,
    paysEtranger: s.libelle_pays_etranger,
  };
}

export function isoDate(value: string | null | undefined): string | null {
  return value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null;
}
