import type { Delivery, DeliveryDetail, DeliveryList } from '../shared/api-types';
import { byId, h, hidden, replace, showText } from '../shared/dom';
import { utc } from '../shared/format';
import { callAccountApi } from './account-api';
import { accountProblemSentence, errorSentence } from './sentences';

/** How many of the endpoint's newest deliveries are listed. */
const SHOWN = 10;
/** While one is pending, the list is read again this often, this many times at most. */
const POLL_MS = 1_500;
const MAX_POLLS = 20;

const list = byId<HTMLOListElement>('deliveries');
const message = byId('deliveries-message');
const error = byId('deliveries-error');
let current: { key: string; endpointId: string } | null = null;
let drawn = 0; // only the newest read may draw
let polls = 0;
let timer: number | undefined;

byId('refresh-deliveries').addEventListener('click', () => {
  polls = 0;
  void refreshDeliveries();
});

/** Lists the deliveries of an endpoint (none: the list is emptied). */
export function showDeliveries(key: string | null, endpointId: string | null): Promise<void> {
  current = key && endpointId ? { key, endpointId } : null;
  polls = 0;
  return refreshDeliveries();
}

/**
 * The newest deliveries, each with its last attempt (the list has the state and counts; the
 * last answer's status is in the delivery's detail). Read again while one is pending.
 */
export async function refreshDeliveries(): Promise<void> {
  window.clearTimeout(timer);
  const mine = ++drawn;
  if (!current) {
    replace(list);
    message.textContent = '';
    showText(error, null);
    return;
  }
  const { key, endpointId } = current;
  const base = `/webhook-endpoints/${encodeURIComponent(endpointId)}/deliveries`;
  const answer = await callAccountApi<DeliveryList>('GET', `${base}?limit=${SHOWN}`, key);
  if (mine !== drawn) return;
  if (!answer.ok) {
    showText(error, `The deliveries could not be read. ${accountProblemSentence(answer, 'deliveries')}`);
    return;
  }
  const details = await Promise.all(
    answer.body.data.map((d) => callAccountApi<DeliveryDetail>('GET', `${base}/${encodeURIComponent(d.id)}`, key)),
  );
  if (mine !== drawn) return;
  showText(error, null);
  const rows = answer.body.data.map((d, i) => {
    const detail = details[i];
    return deliveryItem(d, detail.ok ? detail.body : null, key, base);
  });
  replace(list, ...rows);
  message.textContent =
    rows.length === 0
      ? 'No deliveries to this endpoint yet.'
      : rows.length === 1
        ? 'One delivery.'
        : `The ${rows.length} newest deliveries.`;
  if (answer.body.data.some((d) => d.state === 'pending') && polls++ < MAX_POLLS)
    timer = window.setTimeout(() => void refreshDeliveries(), POLL_MS);
}

function deliveryItem(d: Delivery, detail: DeliveryDetail | null, key: string, base: string): HTMLLIElement {
  const last = detail?.attempts[detail.attempts.length - 1] ?? null;
  const when = utc(d.createdAt, true);
  const retry = h(
    'button',
    { type: 'button', class: 'secondary' },
    'Retry',
    hidden(` the ${d.event} delivery of ${when}`),
  );
  retry.addEventListener('click', async () => {
    retry.disabled = true;
    const answer = await callAccountApi<Delivery>('POST', `${base}/${encodeURIComponent(d.id)}/retry`, key);
    retry.disabled = false;
    if (!answer.ok) {
      showText(error, `That delivery could not be retried. ${accountProblemSentence(answer, 'retry')}`);
      return;
    }
    showText(error, null);
    polls = 0;
    await refreshDeliveries();
    message.textContent = `Retry asked: one more attempt of the ${d.event} delivery of ${when}, now.`;
  });
  return h(
    'li',
    { class: 'delivery', 'data-id': d.id },
    h(
      'div',
      { class: 'delivery-head' },
      h('span', { class: 'event-kind' }, d.event),
      d.isTest && h('span', { class: 'badge badge-test' }, 'Test'),
      h('span', { class: `state state-${d.state}` }, d.state),
    ),
    h(
      'dl',
      { class: 'fields' },
      field('Attempts', String(d.attemptCount)),
      field(
        'Last answer',
        last === null
          ? d.state === 'held'
            ? 'Never sent: held until live delivery is enabled.'
            : 'No attempt yet.'
          : lastAnswer(last),
      ),
      field('Last attempt', d.lastAttemptAt ? utc(d.lastAttemptAt, true) : '—'),
      d.state === 'pending' && d.nextAttemptAt
        ? field('Next attempt', utc(d.nextAttemptAt, true))
        : field('Created', when),
    ),
    h('div', { class: 'actions' }, retry),
  );
}

function lastAnswer(a: DeliveryDetail['attempts'][number]): string {
  if (a.finishedAt === null) return 'In flight…';
  if (a.errorClass === null) return `${a.responseStatus} in ${a.durationMs} ms`;
  const text = errorSentence(a.errorClass, a.errorMessage ?? '', a.responseStatus);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function field(name: string, value: string): HTMLDivElement {
  return h('div', {}, h('dt', {}, name), h('dd', {}, value));
}
