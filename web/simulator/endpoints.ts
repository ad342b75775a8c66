import type { WebhookEndpoint, WebhookEndpointList, WebhookEndpointWithSecret } from '../shared/api-types';
import { byId, h, replace, showText } from '../shared/dom';
import { utc } from '../shared/format';
import { callAccountApi } from './account-api';
import { hideOnce, showOnce } from './once';
import { accountProblemSentence } from './sentences';

/**
 * Step 2: the account's endpoints (a returning user picks one), the chosen one's state, and
 * adding one — whose signing secret is shown this once.
 */
const choice = byId('endpoint-choice');
const select = byId<HTMLSelectElement>('endpoint');
const stateLine = byId('endpoint-state');
const enable = byId<HTMLButtonElement>('enable-endpoint');
const form = byId<HTMLFormElement>('endpoint-form');
const urlInput = byId<HTMLInputElement>('endpoint-url');
const message = byId('endpoint-message');
const error = byId('endpoint-error');

let key: string | null = null;
let endpoints: WebhookEndpoint[] = [];
let onChange: (endpoint: WebhookEndpoint | null) => void = () => undefined;

export function selectedEndpoint(): WebhookEndpoint | null {
  return endpoints.find((e) => e.id === select.value) ?? null;
}

/** Reads the account's endpoints and selects `preferred` (else the one selected, else the newest). */
export async function loadEndpoints(
  apiKey: string,
  changed: (endpoint: WebhookEndpoint | null) => void,
  preferred?: string,
): Promise<void> {
  key = apiKey;
  onChange = changed;
  const answer = await callAccountApi<WebhookEndpointList>('GET', '/webhook-endpoints', apiKey);
  if (key !== apiKey) return;
  if (!answer.ok) {
    showText(error, `Your endpoints could not be read. ${accountProblemSentence(answer, 'endpoint')}`);
    return;
  }
  const keep = preferred ?? select.value;
  endpoints = answer.body.data;
  replace(
    select,
    ...endpoints.map((e) => h('option', { value: e.id }, `${e.url} (${e.enabled ? 'enabled' : 'disabled'})`)),
  );
  const newest = [...endpoints].sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
  select.value = endpoints.some((e) => e.id === keep) ? keep : (newest?.id ?? '');
  choice.hidden = endpoints.length === 0;
  message.textContent = endpoints.length === 0 ? 'No endpoint yet: add the URL of your receiver.' : '';
  drawState();
}

export function clearEndpoints(): void {
  key = null;
  endpoints = [];
  replace(select);
  choice.hidden = true;
  form.reset();
  message.textContent = '';
  showText(error, null);
  hideOnce('new-secret');
}

function drawState(): void {
  const endpoint = selectedEndpoint();
  enable.hidden = !endpoint || endpoint.enabled;
  if (!endpoint) replace(stateLine);
  else if (endpoint.enabled)
    replace(
      stateLine,
      h('span', { class: 'state state-succeeded' }, 'enabled'),
      ' Test events are sent to it whatever events it subscribes to.',
    );
  else {
    const since = endpoint.disabledAt ? ` since ${utc(endpoint.disabledAt)}` : '';
    const why = endpoint.disabledReason ? `: ${endpoint.disabledReason.replace(/[.\s]+$/, '')}` : '';
    replace(
      stateLine,
      h('span', { class: 'state state-failed' }, 'disabled'),
      ` Disabled${since}${why}. Nothing is sent to it until it is enabled again.`,
    );
  }
  onChange(endpoint);
}

select.addEventListener('change', () => {
  showText(error, null);
  drawState();
});

enable.addEventListener('click', async () => {
  const endpoint = selectedEndpoint();
  if (!endpoint || !key) return;
  const apiKey = key;
  enable.disabled = true;
  const answer = await callAccountApi<WebhookEndpoint>(
    'PATCH',
    `/webhook-endpoints/${encodeURIComponent(endpoint.id)}`,
    apiKey,
    { enabled: true },
  );
  enable.disabled = false;
  if (!answer.ok) {
    showText(error, `The endpoint could not be enabled. ${accountProblemSentence(answer, 'endpoint')}`);
    return;
  }
  showText(error, null);
  await loadEndpoints(apiKey, onChange, endpoint.id);
  message.textContent = 'The endpoint is enabled again.';
  select.focus();
});

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  if (!form.reportValidity() || !key) return;
  const apiKey = key;
  const button = form.querySelector('button')!;
  button.disabled = true;
  message.textContent = 'Adding the endpoint…';
  const answer = await callAccountApi<WebhookEndpointWithSecret>('POST', '/webhook-endpoints', apiKey, {
    url: urlInput.value.trim(),
  });
  button.disabled = false;
  if (key !== apiKey) return;
  message.textContent = '';
  if (!answer.ok) {
    showText(error, accountProblemSentence(answer, 'endpoint'));
    return;
  }
  showText(error, null);
  form.reset();
  await loadEndpoints(apiKey, onChange, answer.body.id);
  message.textContent = `Added ${answer.body.url}.`;
  showOnce('new-secret', {
    title: 'The signing secret of this endpoint',
    value: answer.body.secret,
    what: 'the signing secret',
    warning:
      'Put it in your receiver’s configuration (WEBHOOK_SECRET) now: it will not be shown again, here or by the API. Lost, it can only be replaced (rotated) through the API.',
    focusAfter: () => document.getElementById('event'),
  });
});
