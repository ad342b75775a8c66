import type { Account, SimulationResult, Signup, WebhookEndpoint } from '../shared/api-types';
import { byId, h, replace, showText } from '../shared/dom';
import { countryName, plural } from '../shared/format';
import { hideAccess, showAccess } from './access-request';
import { callAccountApi, keyStore } from './account-api';
import { copyButton } from './copy';
import { showDeliveries } from './deliveries';
import { clearEndpoints, loadEndpoints, selectedEndpoint } from './endpoints';
import { COUNTRY_CODES, eventOptions } from './kinds';
import { hideOnce, showOnce } from './once';
import { renderResult } from './result';
import { accountProblemSentence } from './sentences';
import { nodeReceiverSnippet } from './snippet';

/**
 * The webhook simulator: a free account (or a key one has), an endpoint, a test event sent
 * now, and what happened. The key lives in local storage only and goes out only in the
 * Authorization header; the key and the endpoint's secret are shown once, when created.
 */
const signedOut = byId('signed-out');
const signedIn = byId('signed-in');
const accountLine = byId('account-line');
const accountMessage = byId('account-message');
const accountError = byId('account-error');
const signupForm = byId<HTMLFormElement>('signup-form');
const keyForm = byId<HTMLFormElement>('key-form');
const email = byId<HTMLInputElement>('email');
const keyInput = byId<HTMLInputElement>('api-key');
const sendForm = byId<HTMLFormElement>('send-form');
const eventSelect = byId<HTMLSelectElement>('event');
const companyCountry = byId<HTMLSelectElement>('company-country');
const companyNumber = byId<HTMLInputElement>('company-number');
const sendMessage = byId('send-message');
const sendError = byId('send-error');
const sendResult = byId('send-result');
const snippet = byId('snippet');
const quota = byId('quota');
const steps = {
  endpoint: byId('endpoint-step'),
  send: byId('send-step'),
  snippet: byId('snippet-step'),
  deliveries: byId('deliveries-step'),
  access: byId('access-step'),
};

let key: string | null = null;

replace(eventSelect, ...eventOptions());
replace(
  companyCountry,
  h('option', { value: '' }, 'Any'),
  ...COUNTRY_CODES.map((cc) => h('option', { value: cc }, `${countryName(cc)} (${cc})`)),
);

/** Uses `apiKey`: the account it belongs to, its endpoints, its access requests. */
async function signIn(apiKey: string, account?: Account): Promise<void> {
  showText(accountError, null);
  let me = account;
  if (!me) {
    accountMessage.textContent = 'Checking the key…';
    const answer = await callAccountApi<Account>('GET', '/account', apiKey);
    accountMessage.textContent = '';
    if (!answer.ok) {
      if (answer.status === 401) {
        keyStore.forget(); // a key the service refuses is of no use kept
        showSignedOut();
      } else {
        showSignedIn(apiKey, null); // perhaps the network: keep the key, offer to forget it
      }
      showText(accountError, accountProblemSentence(answer, 'account'));
      return;
    }
    me = answer.body;
  }
  const kept = keyStore.save(apiKey);
  showSignedIn(apiKey, me, kept);
  await Promise.all([loadEndpoints(apiKey, endpointChanged), showAccess(apiKey, me)]);
}

function showSignedIn(apiKey: string, account: Account | null, kept = true): void {
  key = apiKey;
  signedOut.hidden = true;
  signedIn.hidden = false;
  const where = kept
    ? 'kept in this browser only'
    : 'this browser refused to store it: it lasts until you leave the page';
  replace(
    accountLine,
    account
      ? `Signed in as ${account.email} (${account.id}) with the key ${apiKey.slice(0, 12)}…, ${where}.`
      : `Using the key ${apiKey.slice(0, 12)}…, ${where}.`,
  );
  steps.endpoint.hidden = account === null;
  steps.access.hidden = account === null;
}

function showSignedOut(): void {
  key = null;
  signedOut.hidden = false;
  signedIn.hidden = true;
  for (const step of Object.values(steps)) step.hidden = true;
  hideOnce('new-key');
  clearEndpoints();
  hideAccess();
  clearSend();
  void showDeliveries(null, null);
  quota.textContent = '';
}

function endpointChanged(endpoint: WebhookEndpoint | null): void {
  steps.send.hidden = steps.snippet.hidden = steps.deliveries.hidden = endpoint === null;
  replace(snippet, ...snippetBlock(endpoint?.url ?? null));
  clearSend();
  void showDeliveries(key, endpoint?.id ?? null);
}

function snippetBlock(url: string | null): Node[] {
  const code = h('code', {}, nodeReceiverSnippet(url));
  return [h('pre', { class: 'code', id: 'snippet-code' }, code), copyButton(code, 'the Node receiver')];
}

function clearSend(): void {
  replace(sendResult);
  sendResult.hidden = true;
  sendMessage.textContent = '';
  showText(sendError, null);
}

signupForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  if (!signupForm.reportValidity()) return;
  const button = signupForm.querySelector('button')!;
  button.disabled = true;
  accountMessage.textContent = 'Creating your account…';
  const answer = await callAccountApi<Signup>('POST', '/accounts', null, { email: email.value.trim() });
  button.disabled = false;
  accountMessage.textContent = '';
  if (!answer.ok) {
    showText(accountError, `No account was created. ${accountProblemSentence(answer, 'signup')}`);
    return;
  }
  signupForm.reset();
  showOnce('new-key', {
    title: 'Your API key',
    value: answer.body.apiKey,
    what: 'the API key',
    warning:
      'Copy it now and keep it somewhere safe: it will not be shown again (the service keeps only a hash of it). This browser keeps it for this page until you press Forget key.',
    focusAfter: () => byId('endpoint-url'),
  });
  await signIn(answer.body.apiKey, answer.body.account);
});

keyForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  if (!keyForm.reportValidity()) return;
  const apiKey = keyInput.value.trim();
  keyForm.reset();
  await signIn(apiKey);
});

byId('forget-key').addEventListener('click', () => {
  keyStore.forget();
  showSignedOut();
  accountMessage.textContent =
    'This browser no longer holds the key. The key itself still works wherever else you keep it.';
  email.focus();
});

companyCountry.addEventListener('change', () => companyCountry.setCustomValidity(''));

sendForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  const endpoint = selectedEndpoint();
  const number = companyNumber.value.trim();
  companyCountry.setCustomValidity(
    number && !companyCountry.value ? 'Choose the country of this registration number.' : '',
  );
  if (!sendForm.reportValidity() || !endpoint || !key) return;
  const button = byId<HTMLButtonElement>('send-button');
  button.disabled = true;
  clearSend();
  sendMessage.textContent = `Sending ${eventSelect.value} to ${endpoint.url}…`;
  const body = {
    event: eventSelect.value,
    endpointId: endpoint.id,
    ...(companyCountry.value ? { country: companyCountry.value } : {}),
    ...(number ? { registrationNumber: number } : {}),
  };
  const answer = await callAccountApi<SimulationResult>('POST', '/simulator/events', key, body);
  button.disabled = false;
  sendMessage.textContent = '';
  if (!answer.ok) {
    showText(sendError, `The test event was not sent. ${accountProblemSentence(answer, 'send')}`);
    return;
  }
  replace(sendResult, ...renderResult(answer.body));
  sendResult.hidden = false;
  quota.textContent = `${plural(answer.body.remainingThisHour, 'test event')} left this hour`;
  void showDeliveries(key, endpoint.id);
});

const stored = keyStore.read();
if (stored) void signIn(stored);
else showSignedOut();
