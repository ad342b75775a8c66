export { AuConnector, AU_PROBE_ABN } from './au.connector';
export { abnStatusCategory, matchingNamesStatus, parseAbnDetails, parseMatchingNames, unwrapJsonp } from './abr-parser';
export { AU_REGISTER } from './au.register';
