import type { HealthReport, IndexStatusReport, RegisterStatusReport, UptimeWindow } from '../shared/api-types';
import { h } from '../shared/dom';
import { countryName, percent, plural, utc } from '../shared/format';
import { conditionLabel, conditionOf } from './condition';
import { dayStrip } from './day-strip';

const WINDOWS: Array<[keyof HealthReport['uptime'], string]> = [
  ['24h', '24 hours'],
  ['7d', '7 days'],
  ['30d', '30 days'],
  ['90d', '90 days'],
];

/** One register: its status and why, uptime per window, the last probe, 90 daily bars. */
export function registerCard(r: RegisterStatusReport, now: Date): HTMLElement {
  return healthCard(r, r.country, countryName(r.country), now);
}

/** GLEIF's LEI index, drawn like a register and said not to be one. */
export function indexCard(r: IndexStatusReport, now: Date): HTMLElement {
  const card = healthCard(r, r.id, 'LEI index, not a register', now);
  card.classList.add('index');
  return card;
}

function healthCard(r: HealthReport, key: string, subtitle: string, now: Date): HTMLElement {
  const condition = conditionOf(r, now);
  const headingId = `register-${key}`;
  return h(
    'section',
    { class: 'register', 'aria-labelledby': headingId },
    h(
      'div',
      { class: 'register-head' },
      h('h2', { id: headingId }, `${r.short}`, h('span', { class: 'register-country' }, ` — ${subtitle}`)),
      h('span', { class: `status status-${condition}` }, conditionLabel(condition)),
    ),
    h('p', { class: 'register-name' }, r.name),
    r.statusReason
      ? h(
          'p',
          { class: 'reason' },
          sentence(r.statusReason),
          r.statusChangedAt ? ` Since ${utc(r.statusChangedAt)}.` : '',
        )
      : null,
    h(
      'dl',
      { class: 'uptime' },
      ...WINDOWS.map(([key, label]) =>
        h('div', {}, h('dt', {}, `Uptime, ${label}`), h('dd', {}, uptime(r.uptime[key]))),
      ),
    ),
    h('p', { class: 'last-probe' }, lastProbe(r)),
    dayStrip(key, `Daily uptime of ${r.short}, last ${r.daily.length} days`, r.daily),
  );
}

function uptime(w: UptimeWindow): string {
  const share = percent(w.uptime);
  return share === null ? 'no data' : `${share} (${plural(w.probes, 'probe')})`;
}

function lastProbe(r: HealthReport): string {
  const p = r.lastProbe;
  if (!p) return r.status === 'paused' ? 'Not probed while paused.' : 'No probe has finished yet.';
  const http = p.httpStatus !== null ? `, HTTP ${p.httpStatus}` : '';
  const outcome = p.ok
    ? `answered in ${p.latencyMs} ms${http}`
    : `failed after ${p.latencyMs} ms: ${p.errorClass ?? 'error'}${http}`;
  const success = !p.ok ? ` Last success: ${r.lastSuccessAt ? utc(r.lastSuccessAt) : 'never recorded'}.` : '';
  return `Last probe ${utc(p.at)}: ${outcome}.${success}`;
}

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
