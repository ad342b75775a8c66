export { FrConnector, FR_PROBE_SIREN, MIRROR_KIND } from './fr.connector';
export { categorieJuridiqueLabel, CATEGORIES_JURIDIQUES } from './categories-juridiques';
export {
  formatFrenchAddress,
  parseDirigeants,
  parseRechercheEntreprises,
  sireneStatus,
} from './recherche-entreprises-parsers';
export { parseInseeAddress, parseInseeSiren, parseInseeSiret, parseInseeSiretSearch } from './insee-parsers';
export { FR_REGISTER } from './fr.register';
