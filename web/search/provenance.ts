import type { CompanyResult } from '../shared/api-types';
import { h } from '../shared/dom';
import { utc } from '../shared/format';

type Source = CompanyResult['source'];

/** "Official" only for a live read from the register itself; anything else says it is not. */
export function provenanceBadge(source: Source): HTMLElement {
  return source.official === true
    ? h('span', { class: 'badge badge-official' }, 'Official')
    : h('span', { class: 'badge badge-fallback' }, 'Not official');
}

/** Where the record was read, in words: "Brønnøysund's own API, read 2026-11-22 10:15 UTC". */
export function sourceSentence(source: Source, registerShort: string): string {
  const [kind, name] = splitKind(source.kind);
  switch (kind) {
    case 'native_official':
      return `${registerShort}’s own API, read ${utc(source.retrievedAt)}`;
    case 'native_official_website':
      return `${registerShort}’s own website, read ${utc(source.retrievedAt)}`;
    case 'public_mirror':
      return `a public mirror (${name}), not ${registerShort} itself, read ${utc(source.retrievedAt)}`;
    case 'dataset':
      return `the fallback dataset “${name}”, produced ${source.retrievedAt.slice(0, 10)}: not a live read`;
    default:
      return `${source.kind}, read ${utc(source.retrievedAt)}`;
  }
}

function splitKind(kind: string): [string, string] {
  const at = kind.indexOf(':');
  return at < 0 ? [kind, ''] : [kind.slice(0, at), kind.slice(at + 1)];
}

/** The response's warning, shown before the results it is about. */
export function warningNote(warning: string | undefined): HTMLElement | null {
  if (!warning) return null;
  return h(
    'div',
    { class: 'warning', role: 'note' },
    h('p', { class: 'warning-title' }, 'Not an official live read'),
    h('p', {}, warning),
  );
}

export function registerStatusBadge(status: string): HTMLElement {
  return h('span', { class: `status status-${status}` }, status);
}
