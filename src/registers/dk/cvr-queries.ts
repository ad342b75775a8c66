/** Elasticsearch bodies for the CVR distribution; `_source` keeps the large documents small. */

export const RECORD_FIELDS = [
  'Vrvirksomhed.cvrNummer',
  'Vrvirksomhed.reklamebeskyttet',
  'Vrvirksomhed.virksomhedMetadata.nyesteNavn',
  'Vrvirksomhed.virksomhedMetadata.nyesteVirksomhedsform',
  'Vrvirksomhed.virksomhedMetadata.nyesteBeliggenhedsadresse',
  'Vrvirksomhed.virksomhedMetadata.sammensatStatus',
  'Vrvirksomhed.virksomhedMetadata.stiftelsesDato',
  'Vrvirksomhed.virksomhedsstatus',
  'Vrvirksomhed.livsforloeb',
  // Fallbacks when the metadata block is absent.
  'Vrvirksomhed.navne',
  'Vrvirksomhed.virksomhedsform',
];

export function cvrLookupQuery(cvr: string): object {
  return {
    query: { term: { 'Vrvirksomhed.cvrNummer': Number(cvr) } },
    _source: [...RECORD_FIELDS, 'Vrvirksomhed.deltagerRelation'],
    size: 1,
  };
}

/** The record without participants (`readRecord`; detection reads participants too, with `cvrLookupQuery`). */
export function cvrRecordQuery(cvr: string): object {
  return { query: { term: { 'Vrvirksomhed.cvrNummer': Number(cvr) } }, _source: RECORD_FIELDS, size: 1 };
}

export function cvrNameSearchQuery(name: string, limit: number): object {
  return {
    query: { match: { 'Vrvirksomhed.virksomhedMetadata.nyesteNavn.navn': { query: name, operator: 'and' } } },
    _source: RECORD_FIELDS,
    size: limit,
  };
}
