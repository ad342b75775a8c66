import { getJson } from '../shared/api';
import type { CompanyResponse, CompanyResult, Officer } from '../shared/api-types';
import { h, replace } from '../shared/dom';
import { problemSentence } from '../shared/problem-sentence';
import { provenanceBadge, sourceSentence, warningNote } from './provenance';

/**
 * Opens (or closes) one result: GET /companies/{cc}/{number}, then its officers with the
 * provenance of that read, which may differ from the search's (another moment, another source).
 */
export async function toggleCompany(
  button: HTMLButtonElement,
  detail: HTMLElement,
  result: CompanyResult,
  registerShort: string,
  searchWarning?: string,
): Promise<void> {
  const opening = button.getAttribute('aria-expanded') !== 'true';
  button.setAttribute('aria-expanded', String(opening));
  detail.hidden = !opening;
  if (!opening || detail.dataset.loaded) return;
  replace(detail, h('p', { class: 'loading' }, `Reading ${result.name} at ${registerShort}…`));
  detail.setAttribute('aria-busy', 'true');
  const answer = await getJson<CompanyResponse>(
    `/companies/${encodeURIComponent(result.country)}/${encodeURIComponent(result.registrationNumber)}`,
  );
  detail.removeAttribute('aria-busy');
  if (!answer.ok) {
    replace(detail, h('p', { class: 'error', role: 'alert' }, problemSentence(answer, { register: registerShort })));
    return;
  }
  detail.dataset.loaded = 'true';
  const { company } = answer.body;
  replace(
    detail,
    h('h4', {}, 'Officers'),
    h(
      'p',
      { class: 'detail-source' },
      provenanceBadge(company.source),
      ' ',
      `From ${sourceSentence(company.source, registerShort)}.`,
    ),
    // The search's warning is already above; a different one (the register failed since) is shown here.
    answer.body.warning !== searchWarning ? warningNote(answer.body.warning) : null,
    officers(company.officers, registerShort),
  );
}

function officers(list: Officer[] | null, registerShort: string): HTMLElement {
  if (list === null)
    return h('p', { class: 'none' }, `No officers: this source of ${registerShort}’s data does not publish them.`);
  if (list.length === 0) return h('p', { class: 'none' }, `${registerShort} lists no officers for this company.`);
  return h(
    'ul',
    { class: 'officers' },
    ...list.map((o) =>
      h(
        'li',
        {},
        h('span', { class: 'officer-name' }, o.name),
        h(
          'span',
          { class: 'officer-meta' },
          [
            o.role,
            o.kind === 'company' ? 'a company' : 'a person',
            o.appointedOn && `appointed ${o.appointedOn}`,
            o.resignedOn && `resigned ${o.resignedOn}`,
          ]
            .filter(Boolean)
            .join(' · '),
        ),
      ),
    ),
  );
}
