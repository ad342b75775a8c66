import { byId, h, replace } from '../shared/dom';
import { copyButton } from './copy';

/**
 * A secret the API shows this once (the API key, an endpoint's signing secret): shown with
 * a Copy button and the warning, held nowhere but this element, and gone for good when
 * the user says it is saved (or the page is left).
 */
export function showOnce(
  containerId: string,
  options: { title: string; value: string; warning: string; what: string; focusAfter?: () => HTMLElement | null },
): void {
  const container = byId(containerId);
  const value = h('code', { class: 'secret-value' }, options.value);
  const heading = h('h3', { tabindex: -1 }, options.title);
  const done = h('button', { type: 'button', class: 'secondary' }, 'I have saved it');
  done.addEventListener('click', () => {
    hideOnce(containerId);
    options.focusAfter?.()?.focus();
  });
  replace(
    container,
    h(
      'div',
      { class: 'once' },
      heading,
      h('p', { class: 'once-warning' }, h('strong', {}, 'Shown only this once. '), options.warning),
      h('p', { class: 'secret-box' }, value),
      h('div', { class: 'actions' }, copyButton(value, options.what), done),
    ),
  );
  container.hidden = false;
  heading.focus();
}

export function hideOnce(containerId: string): void {
  const container = byId(containerId);
  replace(container);
  container.hidden = true;
}
