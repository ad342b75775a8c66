import type { CompanyResult, SearchResponse } from '../shared/api-types';
import { h, hidden } from '../shared/dom';
import { toggleCompany } from './company';
import { provenanceBadge, registerStatusBadge, sourceSentence, warningNote } from './provenance';

const CATEGORY: Record<string, string> = {
  active: 'active',
  in_liquidation: 'in liquidation',
  insolvency: 'insolvency',
  dissolved: 'dissolved',
  struck_off: 'struck off',
  unknown: 'category unknown',
};

/** One sentence for the live region: what the search found, where. */
export function summary(response: SearchResponse): string {
  const where = `${response.register.short} (${response.countryName})`;
  if (!response.resolved || response.count === 0) return `No company matches “${response.query}” in ${where}.`;
  return `${response.count} ${response.count === 1 ? 'company' : 'companies'} found in ${where}.`;
}

/** The register line, the warning when there is one, the results, the attribution. */
export function renderResults(response: SearchResponse): Node[] {
  const { register } = response;
  return [
    h('h2', { id: 'results-heading' }, `Results from ${register.short}`),
    h(
      'p',
      { class: 'register-line' },
      `${register.name}, ${response.countryName}. Register status: `,
      registerStatusBadge(register.status),
      '.',
    ),
    warningNote(response.warning),
    response.count > 0
      ? h(
          'ol',
          { class: 'result-list' },
          ...response.results.map((r, i) => h('li', {}, renderResult(r, i, register.short, response.warning))),
        )
      : h('p', {}, summary(response)),
    h('p', { class: 'attribution' }, response.attribution),
  ].filter((n): n is HTMLElement => n !== null);
}

function renderResult(
  result: CompanyResult,
  index: number,
  registerShort: string,
  searchWarning: string | undefined,
): HTMLElement {
  const id = `result-${index}`;
  const detail = h('div', { id: `${id}-detail`, class: 'detail', hidden: true });
  const open = h(
    'button',
    { type: 'button', class: 'secondary', 'aria-expanded': 'false', 'aria-controls': detail.id },
    'Show officers',
    hidden(` of ${result.name}`),
  );
  open.addEventListener('click', () => void toggleCompany(open, detail, result, registerShort, searchWarning));
  return h(
    'article',
    { class: 'result', 'aria-labelledby': `${id}-name` },
    h('div', { class: 'result-head' }, h('h3', { id: `${id}-name` }, result.name), provenanceBadge(result.source)),
    fields([
      ['Registration number', result.registrationNumber],
      [
        'Status',
        result.status
          ? `${result.status} (${CATEGORY[result.statusCategory] ?? result.statusCategory})`
          : CATEGORY[result.statusCategory],
      ],
      ['Legal form', result.legalForm],
      ['Address', address(result)],
      ['Incorporated', result.incorporationDate],
      // Only where GLEIF maps the company: its absence may mean GLEIF did not answer in time.
      ...(result.lei ? [['LEI', `${result.lei} (GLEIF Global LEI Index)`] as [string, string]] : []),
      ['Source', sourceSentence(result.source, registerShort)],
    ]),
    h(
      'p',
      { class: 'actions' },
      open,
      h(
        'a',
        { href: result.source.url, target: '_blank', rel: 'noopener noreferrer' },
        `View at ${registerShort}`,
        hidden(` (${result.name}, opens in a new tab)`),
      ),
    ),
    detail,
  );
}

/** Label–value pairs as a description list; a missing value says so rather than vanishing. */
export function fields(rows: Array<[string, string | null | undefined]>): HTMLElement {
  return h(
    'dl',
    { class: 'fields' },
    ...rows.map(([label, value]) =>
      h('div', {}, h('dt', {}, label), h('dd', value ? {} : { class: 'none' }, value || 'not published')),
    ),
  );
}

/** Most registers put the city in the address line already; say it once. */
function address(result: CompanyResult): string | null {
  const { address, city } = result;
  if (!address) return city;
  return city && !address.toLowerCase().includes(city.toLowerCase()) ? `${address}, ${city}` : address;
}
