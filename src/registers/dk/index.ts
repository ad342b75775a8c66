export { DkConnector, DK_PROBE_CVR } from './dk.connector';
export { cvrStatus, cvrStatusCategory, formatCvrAddress, parseCvrSearchBody, toCvrRecord } from './cvr-parser';
export { parseCvrOfficers } from './cvr-officers';
export { DK_REGISTER } from './dk.register';
