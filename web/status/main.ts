import { getJson } from '../shared/api';
import type { StatusReport } from '../shared/api-types';
import { byId, replace, showText } from '../shared/dom';
import { utc } from '../shared/format';
import { problemSentence } from '../shared/problem-sentence';
import { summaryLine } from './condition';
import { indexCard, registerCard } from './register-card';

/**
 * The status page: GET /status drawn as one section per register (and one for GLEIF's LEI
 * index, after them), again every minute. A
 * hidden tab does not refresh (each refresh counts against the hourly limit); it catches up
 * when shown again.
 */
const REFRESH_MS = 60_000;
const registers = byId('registers');
const updated = byId('updated');
const error = byId('error');
const summary = byId('summary');
let stale = false;

async function refresh(): Promise<void> {
  if (document.hidden) {
    stale = true;
    return;
  }
  stale = false;
  const answer = await getJson<StatusReport>('/status');
  if (!answer.ok) {
    showText(
      error,
      `The status could not be ${registers.childElementCount > 0 ? 'refreshed' : 'loaded'}. ${problemSentence(answer)}`,
    );
    if (registers.childElementCount === 0) updated.textContent = '';
    return;
  }
  showText(error, null);
  const focused = (document.activeElement as HTMLElement | null)?.dataset?.key;
  const now = new Date(answer.body.generatedAt);
  const indexes = answer.body.indexes ?? [];
  summary.textContent = summaryLine(answer.body.registers, indexes, now);
  replace(
    registers,
    ...answer.body.registers.map((r) => registerCard(r, now)),
    ...indexes.map((r) => indexCard(r, now)),
  );
  updated.textContent = `Updated ${utc(answer.body.generatedAt, true)}.`;
  // Keep the keyboard where it was: the same day of the same register.
  if (focused)
    registers.querySelectorAll<HTMLElement>('[data-key]').forEach((el) => el.dataset.key === focused && focusBar(el));
}

function focusBar(bar: HTMLElement): void {
  bar.parentElement?.querySelectorAll<HTMLElement>('li').forEach((b) => (b.tabIndex = b === bar ? 0 : -1));
  bar.focus();
}

document.addEventListener('visibilitychange', () => {
  if (!document.hidden && stale) void refresh();
});
setInterval(() => void refresh(), REFRESH_MS);
void refresh();
