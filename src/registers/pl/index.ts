export { PlConnector, PL_PROBE_KRS } from './pl.connector';
export { parseKrsProblem, parseOdpisAktualny, parseOdpisPelny } from './krs-parsers';
export { PlBiuletynFeed } from './pl-biuletyn-feed';
export { PL_REGISTER } from './pl.register';
