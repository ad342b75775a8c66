export { CaConnector, CA_PROBE_CORPORATION } from './ca.connector';
export {
  CA_STATUS_WORDING,
  corpCanStatusCategory,
  parseCorpCanCorporation,
  parseCorpCanDirectors,
} from './corpcan-parser';
export { CA_REGISTER } from './ca.register';
