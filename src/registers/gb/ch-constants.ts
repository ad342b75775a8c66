import type { StatusCategory } from '../connector';
import { lookupTable } from '../../platform/lookup-table';

/*
 * Companies House's own labels, copied from companieshouse/api-enumerations constants.yml
 * (test/fixtures/registers/gb/ch-api-enumerations-constants.yml; ch-constants.spec.ts proves
 * these tables equal that file). The API gives codes; people and the website read these labels.
 */

/** `company_status` → label ("Active", "Liquidation", "Dissolved"…). */
export const COMPANY_STATUS_LABELS: Readonly<Record<string, string>> = lookupTable({
  active: 'Active',
  dissolved: 'Dissolved',
  liquidation: 'Liquidation',
  receivership: 'Receiver Action',
  'converted-closed': 'Converted / Closed',
  'voluntary-arrangement': 'Voluntary Arrangement',
  'insolvency-proceedings': 'Insolvency Proceedings',
  administration: 'In Administration',
  open: 'Open',
  closed: 'Closed',
  registered: 'Registered',
  removed: 'Removed',
});

/** `company_status_detail` → label (empty for plain statuses). */
export const COMPANY_STATUS_DETAIL_LABELS: Readonly<Record<string, string>> = lookupTable({
  active: '',
  dissolved: '',
  'converted-closed': '',
  'transferred-from-uk': 'Transfer from UK',
  'active-proposal-to-strike-off': 'Active proposal to strike off',
  'petition-to-restore-dissolved': 'Petition to restore dissolved',
  'transformed-to-se': 'Transformed to SE',
  'converted-to-plc': 'Converted to PLC',
  'converted-to-uk-societas': 'Converted to UK Societas',
  'converted-to-ukeig': 'Converted to UKEIG',
});

/** `type` / `company_type` → legal form label ("Private limited company"…). */
export const COMPANY_TYPE_LABELS: Readonly<Record<string, string>> = lookupTable({
  'private-unlimited': 'Private unlimited company',
  ltd: 'Private limited company',
  plc: 'Public limited company',
  'old-public-company': 'Old public company',
  'private-limited-guarant-nsc-limited-exemption':
    "Private Limited Company by guarantee without share capital, use of 'Limited' exemption",
  'limited-partnership': 'Limited partnership',
  'private-limited-guarant-nsc': 'Private limited by guarantee without share capital',
  'converted-or-closed': 'Converted / closed',
  'private-unlimited-nsc': 'Private unlimited company without share capital',
  'private-limited-shares-section-30-exemption': "Private Limited Company, use of 'Limited' exemption",
  'protected-cell-company': 'Protected cell company',
  'assurance-company': 'Assurance company',
  'oversea-company': 'Overseas company',
  'eeig-establishment': 'European Economic Interest Grouping Establishment (EEIG)',
  'icvc-securities': 'Investment company with variable capital',
  'icvc-warrant': 'Investment company with variable capital',
  'icvc-umbrella': 'Investment company with variable capital',
  'registered-society-non-jurisdictional': 'Registered society',
  'industrial-and-provident-society': 'Industrial and Provident society',
  'northern-ireland': 'Northern Ireland company',
  'northern-ireland-other': 'Credit union (Northern Ireland)',
  llp: 'Limited liability partnership',
  'royal-charter': 'Royal charter company',
  'investment-company-with-variable-capital': 'Investment company with variable capital',
  'unregistered-company': 'Unregistered company',
  other: 'Other company type',
  'european-public-limited-liability-company-se': 'European public limited liability company (SE)',
  'united-kingdom-societas': 'United Kingdom Societas',
  'uk-establishment': 'UK establishment company',
  'scottish-partnership': 'Scottish qualifying partnership',
  'charitable-incorporated-organisation': 'Charitable incorporated organisation',
  'scottish-charitable-incorporated-organisation': 'Scottish charitable incorporated organisation',
  'further-education-or-sixth-form-college-corporation': 'Further education or sixth form college corporation',
  eeig: 'European Economic Interest Grouping (EEIG)',
  ukeig: 'United Kingdom Economic Interest Grouping',
  'registered-overseas-entity': 'Overseas entity',
});

/** `officer_role` → role label ("Director", "Nominee Secretary"…). */
export const OFFICER_ROLE_LABELS: Readonly<Record<string, string>> = lookupTable({
  'cic-manager': 'CIC Manager',
  'corporate-director': 'Director',
  'corporate-llp-designated-member': 'LLP Designated Member',
  'corporate-llp-member': 'LLP Member',
  'corporate-manager-of-an-eeig': 'Manager of an EEIG',
  'corporate-managing-officer': 'Managing Officer',
  'corporate-member-of-a-management-organ': 'Member of a Management Organ',
  'corporate-member-of-a-supervisory-organ': 'Member of a Supervisory Organ',
  'corporate-member-of-an-administrative-organ': 'Member of an Administrative Organ',
  'corporate-nominee-director': 'Nominee Director',
  'corporate-nominee-secretary': 'Nominee Secretary',
  'corporate-secretary': 'Secretary',
  director: 'Director',
  'general-partner-in-a-limited-partnership': 'General partner',
  'corporate-general-partner-in-a-limited-partnership': 'General partner',
  'limited-partner-in-a-limited-partnership': 'Limited partner',
  'corporate-limited-partner-in-a-limited-partnership': 'Limited partner',
  'judicial-factor': 'Judicial Factor',
  'llp-designated-member': 'LLP Designated Member',
  'llp-member': 'LLP Member',
  'manager-of-an-eeig': 'Manager of an EEIG',
  'managing-officer': 'Managing Officer',
  'member-of-a-management-organ': 'Member of a Management Organ',
  'member-of-a-supervisory-organ': 'Member of a Supervisory Organ',
  'member-of-an-administrative-organ': 'Member of an Administrative Organ',
  'nominee-director': 'Nominee Director',
  'nominee-secretary': 'Nominee Secretary',
  'person-authorised-to-accept': 'Person Authorised to Accept',
  'person-authorised-to-represent': 'Person Authorised to Represent',
  'person-authorised-to-represent-and-accept': 'Person Authorised to Represent and Accept',
  'receiver-and-manager': 'Receiver and Manager',
  secretary: 'Secretary',
});

/** `company_status` → the label of its end date ("Dissolved on"…). */
export const CESSATION_LABELS: Readonly<Record<string, string>> = lookupTable({
  dissolved: 'Dissolved on',
  'converted-closed': 'Closed on',
  removed: 'Removed on',
});

/**
 * Normalised category per `company_status` (shared/registers-gb-fr-no.md): struck-off and
 * dissolved-after-liquidation both read `dissolved` here (only the filing history tells them
 * apart); converted-closed, removed and closed ended the entity on the register too.
 */
export const COMPANY_STATUS_CATEGORIES: Readonly<Record<string, StatusCategory>> = lookupTable({
  active: 'active',
  registered: 'active',
  open: 'active',
  liquidation: 'in_liquidation',
  receivership: 'insolvency',
  administration: 'insolvency',
  'voluntary-arrangement': 'insolvency',
  'insolvency-proceedings': 'insolvency',
  dissolved: 'dissolved',
  'converted-closed': 'dissolved',
  removed: 'dissolved',
  closed: 'dissolved',
});

/** The status code behind a label shown on the website ("Liquidation" → liquidation). */
export function companyStatusCodeOfLabel(label: string): string | null {
  return STATUS_CODE_BY_LABEL.get(label.trim().toLowerCase()) ?? null;
}

// The first code of each label wins, as a search through the table in order would find it.
const STATUS_CODE_BY_LABEL = new Map<string, string>();
for (const [code, l] of Object.entries(COMPANY_STATUS_LABELS))
  if (!STATUS_CODE_BY_LABEL.has(l.toLowerCase())) STATUS_CODE_BY_LABEL.set(l.toLowerCase(), code);
