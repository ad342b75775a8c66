import { getJson } from '../shared/api';
import type { RegisterList, SearchResponse } from '../shared/api-types';
import { byId, h, replace, showText } from '../shared/dom';
import { problemSentence } from '../shared/problem-sentence';
import { renderResults, summary } from './results';

/**
 * The search page: the country list comes from GET /registers, a search is GET /search, and
 * the search lives in the URL (?country=&q=) so it can be shared, reloaded and gone back to.
 */
const form = byId<HTMLFormElement>('search-form');
const country = byId<HTMLSelectElement>('country');
const q = byId<HTMLInputElement>('q');
const message = byId('message');
const error = byId('error');
const results = byId('results');
const registerNames = new Map<string, string>();
let latest = 0; // only the newest search may draw its answer

async function loadRegisters(): Promise<void> {
  const answer = await getJson<RegisterList>('/registers');
  if (!answer.ok) {
    replace(country, h('option', { value: '' }, 'Registers unavailable'));
    showText(error, `The list of registers could not be loaded. ${problemSentence(answer)}`);
    return;
  }
  const options = answer.body.registers.map((r) => {
    registerNames.set(r.country, r.short);
    return h('option', { value: r.country }, `${r.countryName} — ${r.short} (${r.status})`);
  });
  replace(country, ...options);
}

async function search(cc: string, query: string): Promise<void> {
  const mine = ++latest;
  const register = registerNames.get(cc) ?? 'the register';
  showText(error, null);
  message.textContent = `Searching ${register}…`;
  results.setAttribute('aria-busy', 'true');
  const answer = await getJson<SearchResponse>(
    `/search?country=${encodeURIComponent(cc)}&q=${encodeURIComponent(query)}`,
  );
  if (mine !== latest) return;
  results.removeAttribute('aria-busy');
  if (!answer.ok) {
    message.textContent = '';
    results.hidden = true;
    showText(error, problemSentence(answer, { register }));
    return;
  }
  message.textContent = summary(answer.body);
  replace(results, ...renderResults(answer.body));
  results.hidden = false;
}

/** Sets the form from the URL and runs the search it names, if any. */
function fromUrl(): void {
  const params = new URLSearchParams(location.search);
  const cc = (params.get('country') ?? '').toUpperCase();
  if (registerNames.has(cc)) country.value = cc;
  q.value = params.get('q') ?? '';
  if (registerNames.has(cc) && q.value.trim()) void search(cc, q.value.trim());
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  if (!form.reportValidity()) return;
  const query = q.value.trim();
  const url = `/?${new URLSearchParams({ country: country.value, q: query })}`;
  if (url !== location.pathname + location.search) history.pushState(null, '', url);
  void search(country.value, query);
});
window.addEventListener('popstate', fromUrl);

void loadRegisters().then(fromUrl);
