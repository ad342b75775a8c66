import type { SimulationResult } from '../shared/api-types';
import { h } from '../shared/dom';
import { outcomeSentence } from './sentences';

/**
 * What a test event did: the request exactly as sent (method, URL, every header, the body),
 * then the endpoint's answer (status, duration, body) or why there was none.
 */
export function renderResult(result: SimulationResult): Node[] {
  const delivered = result.sent && !result.error && result.response !== null;
  const nodes: Node[] = [
    h('p', { class: `outcome ${delivered ? 'outcome-ok' : 'outcome-failed'}` }, outcomeSentence(result)),
  ];
  const { request, response } = result;
  if (request) {
    nodes.push(
      h('h3', {}, 'The request sent'),
      h('p', { class: 'request-line' }, h('code', {}, `${request.method} ${request.url}`)),
      h('h4', {}, 'Headers'),
      h(
        'pre',
        { class: 'code', id: 'sent-headers' },
        Object.entries(request.headers)
          .map(([name, value]) => `${name}: ${value}`)
          .join('\n'),
      ),
      h('h4', {}, 'Body'),
      h(
        'p',
        { class: 'hint' },
        'Indented here for reading; it was sent, and signed, as the compact JSON your endpoint received.',
      ),
      h('pre', { class: 'code', id: 'sent-body' }, pretty(request.body)),
    );
  }
  if (result.sent) {
    nodes.push(h('h3', {}, 'Your endpoint’s answer'));
    if (response) {
      nodes.push(
        h(
          'dl',
          { class: 'fields', id: 'answer' },
          h('div', {}, h('dt', {}, 'Status'), h('dd', {}, String(response.status))),
          h('div', {}, h('dt', {}, 'Duration'), h('dd', {}, `${response.durationMs} ms`)),
        ),
        response.bodyStart
          ? h('pre', { class: 'code', id: 'answer-body' }, response.bodyStart)
          : h('p', { class: 'none' }, 'An empty body.'),
      );
    } else {
      nodes.push(h('p', { class: 'none' }, 'No answer came.'));
    }
  }
  nodes.push(
    h(
      'p',
      { class: 'meta' },
      `Delivery ${result.deliveryId}, webhook-id ${result.webhookId}. It is in Recent deliveries below.`,
    ),
  );
  return nodes;
}

/** The body indented for reading (it is JSON; anything else is shown as it is). */
function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
