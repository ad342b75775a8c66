export { FiConnector, FI_PROBE_BUSINESS_ID } from './fi.connector';
export { formatPrhAddress, parsePrhCompany, parsePrhSearch, prhCompanies, prhStatus } from './prh-parsers';
export { recognizeFiIdentifier } from './fi.identifier';
export { FI_REGISTER } from './fi.register';
