export { GbConnector, GB_PROBE_COMPANY_NUMBER } from './gb.connector';
export {
  chLegalForm,
  chStatus,
  formatChAddress,
  parseCompanyProfile,
  parseCompanySearch,
  parseOfficerList,
} from './ch-api-parsers';
export { parseChDate, parseWebCompany, parseWebOfficers, parseWebSearch } from './ch-web-parsers';
export { GB_REGISTER } from './gb.register';
