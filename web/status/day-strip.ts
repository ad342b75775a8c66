import type { DailyUptime } from '../shared/api-types';
import { h } from '../shared/dom';
import { percent, plural } from '../shared/format';

/** The colour class of a day; the legend in content.html names the same classes. */
export function dayClass(day: DailyUptime): string {
  if (day.uptime === null) return 'day-none';
  if (day.uptime >= 1) return 'day-up';
  if (day.uptime >= 0.95) return 'day-minor';
  if (day.uptime > 0) return 'day-major';
  return 'day-down';
}

/** "2026-11-21: 99.65% up, 287 of 288 probes answered" — the bar's tooltip and accessible text. */
export function dayText(day: DailyUptime): string {
  if (day.uptime === null) return `${day.date}: no data (no probe ran)`;
  return `${day.date}: ${percent(day.uptime)} up, ${day.ok} of ${plural(day.probes, 'probe')} answered`;
}

/**
 * 90 bars, oldest first. The strip is one tab stop; arrow keys, Home and End move between
 * days (a roving tabindex), and the day under the pointer or focus is spelled out below the
 * strip, so the figures never depend on colour or on a mouse.
 */
export function dayStrip(country: string, label: string, days: DailyUptime[]): HTMLElement {
  const detail = h('p', { class: 'day-detail', 'aria-hidden': 'true' }, 'Point at or focus a day to see its figures.');
  const bars = days.map((day, i) =>
    h(
      'li',
      {
        class: `day ${dayClass(day)}`,
        title: dayText(day),
        tabindex: i === days.length - 1 ? 0 : -1,
        'data-key': `${country}:${day.date}`,
      },
      h('span', { class: 'visually-hidden' }, dayText(day)),
    ),
  );
  const list = h('ol', { class: 'days', 'aria-label': label }, ...bars);
  const show = (bar: HTMLElement) => {
    detail.textContent = bar.title;
    bars.forEach((b) => b.classList.toggle('is-current', b === bar));
  };
  list.addEventListener('focusin', (e) => show(e.target as HTMLElement));
  list.addEventListener('mouseover', (e) => {
    const bar = (e.target as HTMLElement).closest('li');
    if (bar) show(bar);
  });
  list.addEventListener('keydown', (e) => {
    const at = bars.indexOf(document.activeElement as HTMLLIElement);
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: bars.length - 1 }[e.key];
    if (at < 0 || to === undefined) return;
    e.preventDefault();
    const next = bars[Math.max(0, Math.min(bars.length - 1, to))];
    bars.forEach((b) => (b.tabIndex = b === next ? 0 : -1));
    next.focus();
  });
  return h(
    'div',
    { class: 'strip' },
    list,
    h(
      'div',
      { class: 'days-axis', 'aria-hidden': 'true' },
      h('span', {}, days[0]?.date ?? ''),
      h('span', {}, 'Today (UTC)'),
    ),
    detail,
  );
}
