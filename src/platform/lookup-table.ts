/**
 * A constant table keyed by strings that come from outside (a JSON-RPC method, a register's
 * status code, a bulk file's column). A plain object literal answers `table['constructor']`
 * or `table['__proto__']` with what it inherits from Object.prototype; this one has no
 * prototype, so an unknown key is always undefined.
 */
export function lookupTable<T>(entries: Record<string, T>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}

/** Keys a hostile input would try on a plain object (tests of every table use them). */
export const PROTOTYPE_KEYS = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  '__defineGetter__',
] as const;
