import { h } from '../shared/dom';

/**
 * A "Copy" button for the text of `source`. The clipboard API where the browser allows it;
 * otherwise the text is selected, and the button's note says to press the copy keys.
 */
export function copyButton(source: HTMLElement, what: string): HTMLElement {
  const note = h('span', { class: 'copy-note', role: 'status' });
  const button = h(
    'button',
    { type: 'button', class: 'secondary' },
    'Copy',
    h('span', { class: 'visually-hidden' }, ` ${what}`),
  );
  button.addEventListener('click', async () => {
    const text = source.textContent ?? '';
    try {
      await navigator.clipboard.writeText(text);
      note.textContent = 'Copied.';
    } catch {
      selectText(source);
      note.textContent = 'Selected: press Ctrl+C (⌘C on a Mac) to copy.';
    }
  });
  return h('div', { class: 'copy' }, button, note);
}

function selectText(el: HTMLElement): void {
  const range = document.createRange();
  range.selectNodeContents(el);
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
}
