export { CzConnector, CZ_PROBE_ICO } from './cz.connector';
export {
  aresStatus,
  formatAdresa,
  parseAresError,
  parseSubjekt,
  parseSubjektSearch,
  parseVrOfficers,
} from './ares-parsers';
export { CzNotificationFeed } from './cz-notification-feed';
export { CZ_REGISTER } from './cz.register';
