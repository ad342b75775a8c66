import { BUILT_EVENT_KINDS, PLANNED_EVENT_KINDS } from '../../src/events/event-kind-names';
import { h } from '../shared/dom';
import { countryName } from '../shared/format';

/** The register list's countries, put in by the build from src/registers/registers.ts (scripts/build-web.js). */
declare const __COUNTRY_CODES__: readonly string[];
export const COUNTRY_CODES: readonly string[] = __COUNTRY_CODES__;

// The service's own lists (plain arrays, bundled): the page never has a second copy.
export { BUILT_EVENT_KINDS, PLANNED_EVENT_KINDS };

/** The event kinds as <option>s: the built ones, then the planned ones shown but disabled. */
export function eventOptions(): HTMLElement[] {
  return [
    ...BUILT_EVENT_KINDS.map((k) => h('option', { value: k }, k)),
    ...(PLANNED_EVENT_KINDS.length
      ? [
          h(
            'optgroup',
            { label: 'Planned, not built yet' },
            ...PLANNED_EVENT_KINDS.map((k) => h('option', { value: k, disabled: true }, `${k} (planned)`)),
          ),
        ]
      : []),
  ];
}

/** Checkboxes named `name`: one per value; `disabled` values shown with their note. */
export function checkboxes(
  name: string,
  items: Array<{ value: string; label: string; disabled?: boolean }>,
): HTMLElement[] {
  return items.map((item) => {
    const id = `${name}-${item.value.replace(/[^a-z0-9]+/gi, '-')}`;
    return h(
      'div',
      { class: 'check' },
      h('input', { type: 'checkbox', id, name, value: item.value, disabled: item.disabled ?? false }),
      h('label', { for: id }, item.label),
    );
  });
}

export function countryItems(): Array<{ value: string; label: string }> {
  return COUNTRY_CODES.map((cc) => ({ value: cc, label: `${countryName(cc)} (${cc})` }));
}

export function eventItems(): Array<{ value: string; label: string; disabled?: boolean }> {
  return [
    ...BUILT_EVENT_KINDS.map((k) => ({ value: k, label: k })),
    ...PLANNED_EVENT_KINDS.map((k) => ({ value: k, label: `${k} (planned)`, disabled: true })),
  ];
}
