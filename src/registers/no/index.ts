export { NoConnector, NO_PROBE_ORGNR } from './no.connector';
export {
  brregStatus,
  formatAdresse,
  parseEnhet,
  parseEnhetSearch,
  parseFjernetEnhet,
  parseRoller,
} from './brreg-parsers';
export { NO_REGISTER } from './no.register';
