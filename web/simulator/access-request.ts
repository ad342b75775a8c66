import type { Account, AccessRequest, AccessRequestList } from '../shared/api-types';
import { byId, h, replace, showText } from '../shared/dom';
import { utc } from '../shared/format';
import { callAccountApi } from './account-api';
import { checkboxes, countryItems, eventItems } from './kinds';
import { accountProblemSentence } from './sentences';

/**
 * Live delivery: the state of the account's newest access request (pending, approved,
 * rejected with the operator's reason), and the form to file one when none is waiting.
 */
const state = byId('access-state');
const form = byId<HTMLFormElement>('access-form');
const error = byId('access-error');
const countries = byId('access-countries');
const events = byId('access-events');
const volume = byId<HTMLInputElement>('monthly-volume');
const useCase = byId<HTMLTextAreaElement>('use-case');
let key: string | null = null;

replace(countries, ...checkboxes('countries', countryItems()));
replace(events, ...checkboxes('events', eventItems()));

export async function showAccess(apiKey: string, account: Account): Promise<void> {
  key = apiKey;
  showText(error, null);
  const answer = await callAccountApi<AccessRequestList>('GET', '/access-requests', apiKey);
  if (key !== apiKey) return;
  if (!answer.ok) {
    replace(state);
    form.hidden = true;
    showText(error, `Your access requests could not be read. ${accountProblemSentence(answer, 'access')}`);
    return;
  }
  draw(account.liveDelivery.enabled ? account.liveDelivery.since : null, answer.body.data[0] ?? null);
}

export function hideAccess(): void {
  key = null;
  replace(state);
  form.reset();
  form.hidden = true;
  showText(error, null);
}

function draw(liveSince: string | null, latest: AccessRequest | null): void {
  if (liveSince) {
    replace(
      state,
      h(
        'p',
        {},
        h('span', { class: 'state state-approved' }, 'enabled'),
        ` Live delivery is enabled for this account since ${utc(liveSince)}.`,
      ),
    );
    form.hidden = true;
    return;
  }
  if (!latest) {
    replace(state, h('p', {}, 'Live delivery is not enabled for this account, and no request was made.'));
    form.hidden = false;
    return;
  }
  const filed = `Your request of ${utc(latest.createdAt)} (${latest.countries.join(', ')}; ${latest.monthlyVolume.toLocaleString('en')} events a month)`;
  const sentences: Record<string, string> = {
    pending: `${filed} is pending: an operator will decide.`,
    approved: `${filed} was approved${latest.decidedAt ? ` on ${utc(latest.decidedAt)}` : ''}.`,
    rejected: `${filed} was rejected${latest.decidedAt ? ` on ${utc(latest.decidedAt)}` : ''}${latest.decisionReason ? `: ${latest.decisionReason.replace(/[.\s]+$/, '')}` : ''}. You may send another.`,
  };
  replace(
    state,
    h(
      'p',
      { id: 'access-request-state' },
      h('span', { class: `state state-${latest.state}` }, latest.state),
      ` ${sentences[latest.state] ?? filed}`,
    ),
  );
  form.hidden = latest.state !== 'rejected';
}

function checked(container: HTMLElement): string[] {
  return [...container.querySelectorAll<HTMLInputElement>('input[type=checkbox]:checked')].map((c) => c.value);
}

/** At least one box of the group ticked, said on its first box. */
function requireOne(container: HTMLElement, text: string): void {
  const first = container.querySelector<HTMLInputElement>('input[type=checkbox]:not([disabled])')!;
  first.setCustomValidity(checked(container).length === 0 ? text : '');
}

form.addEventListener('change', () => {
  requireOne(countries, 'Choose at least one country.');
  requireOne(events, 'Choose at least one event.');
});

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  requireOne(countries, 'Choose at least one country.');
  requireOne(events, 'Choose at least one event.');
  if (!form.reportValidity() || !key) return;
  const apiKey = key;
  const button = form.querySelector('button')!;
  button.disabled = true;
  const answer = await callAccountApi<AccessRequest>('POST', '/access-requests', apiKey, {
    countries: checked(countries),
    monthlyVolume: Number(volume.value),
    events: checked(events),
    useCase: useCase.value.trim(),
  });
  button.disabled = false;
  if (key !== apiKey) return;
  if (!answer.ok) {
    showText(error, `The request was not filed. ${accountProblemSentence(answer, 'access')}`);
    return;
  }
  showText(error, null);
  form.reset();
  draw(null, answer.body);
});
