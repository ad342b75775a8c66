import type { Readable } from 'node:stream';
import { categorieJuridiqueLabel } from './categories-juridiques';
import { sireneStatus } from './recherche-entreprises-parsers';
import { csvRecords, headerIndex } from '../bulk/csv-records';
import { DatasetFileError, ReaderContext, ReaderItem, RecordRejected, rejected, row } from '../bulk/dataset-row';
import { compactExtra, dateIso, requiredNumber, text } from '../bulk/values';

// INSEE writes "[ND]" (non diffusé) where a unit under partial diffusion hides a value.
function sirene(value: string | undefined): string | null {
  const t = text(value);
  return t === null || t === '[ND]' ? null : t;
}

/**
 * INSEE Sirene `StockUniteLegale` CSV (one line per legal unit; columns named like the
 * API's fields). State and legal form are worded by the FR connector's own functions
 * (INSEE's "Active" / "Cessée", the nomenclature's label of the legal category). The stock
 * of legal units holds no address (addresses are per establishment, in StockEtablissement),
 * so address and city stay null.
 *
 * Units with `statutDiffusionUniteLegale` = P (partial diffusion) never expose what they may
 * hide, even when the file carries it (a restricted-access extract): only the SIREN, state,
 * creation date, legal category and a legal person's denomination are kept. A natural person
 * (category 1000, or no denomination) under P has no public name and is skipped, as the
 * public recherche-entreprises mirror leaves such units out. "[ND]" cells are absent values.
 */
export async function* readFrStockUniteLegale(input: Readable, ctx: ReaderContext): AsyncGenerator<ReaderItem> {
  const web = ctx.urls.WEB;
  let header: string[] | undefined;
  let at!: (name: string) => number;
  for await (const batch of csvRecords(input)) {
    for (const item of batch) {
      if (item.kind === 'rejected') {
        yield item;
        continue;
      }
      if (!header) {
        header = item.fields;
        at = headerIndex(header);
        const missing = ['siren', 'etatAdministratifUniteLegale', 'denominationUniteLegale'].filter((c) => at(c) < 0);
        if (missing.length)
          throw new DatasetFileError(`not a StockUniteLegale CSV: header lacks ${missing.join(', ')}`);
        continue;
      }
      const f = item.fields;
      if (f.length !== header.length) {
        yield rejected(item.line, 'wrong number of columns', `${f.length} instead of ${header.length}`);
        continue;
      }
      const get = (name: string): string | undefined => {
        const i = at(name);
        return i >= 0 ? f[i] : undefined;
      };
      try {
        const siren = requiredNumber(get('siren'), /^\d{9}$/, 'siren');
        const diffusion = text(get('statutDiffusionUniteLegale')) ?? 'O';
        const partial = diffusion !== 'O';
        const categorieJuridique = sirene(get('categorieJuridiqueUniteLegale'));
        const denomination = partial && categorieJuridique === '1000' ? null : sirene(get('denominationUniteLegale'));
        let name = denomination;
        if (!name && !partial) {
          const first = sirene(get('prenomUsuelUniteLegale')) ?? sirene(get('prenom1UniteLegale'));
          const last = sirene(get('nomUsageUniteLegale')) ?? sirene(get('nomUniteLegale'));
          name = last ? [first, last].filter(Boolean).join(' ') : null;
        }
        if (!name) {
          if (partial) {
            yield { kind: 'skipped', reason: 'partial diffusion: name not public' };
            continue;
          }
          throw new RecordRejected('missing name', 'denominationUniteLegale / nomUniteLegale');
        }
        yield row({
          country: 'FR',
          registrationNumber: siren,
          otherNumbers: [],
          name: name.replace(/\s+/g, ' '),
          ...sireneStatus(text(get('etatAdministratifUniteLegale'))),
          legalForm: categorieJuridiqueLabel(categorieJuridique),
          address: null,
          city: null,
          incorporationDate: dateIso(sirene(get('dateCreationUniteLegale')), 'dateCreationUniteLegale'),
          sourceUrl: `${web}/entreprise/${siren}`,
          extra: partial
            ? compactExtra({ categorieJuridique, statutDiffusion: diffusion })
            : compactExtra({
                categorieJuridique,
                sigle: sirene(get('sigleUniteLegale')),
                activitePrincipale: sirene(get('activitePrincipaleUniteLegale')),
                nicSiege: sirene(get('nicSiegeUniteLegale')),
              }),
        });
      } catch (err) {
        if (!(err instanceof RecordRejected)) throw err;
        yield rejected(item.line, err.reason, err.detail);
      }
    }
  }
  if (!header) throw new DatasetFileError('empty file: no header line');
}
