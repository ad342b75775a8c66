/** How long after listening the boot's garbage is collected: once the first probes and the dictionary preload are done. */
export const BOOT_GARBAGE_DELAY_MS = 3_000;

/**
 * Collects the garbage of the boot once, a moment after the process starts listening, when
 * node runs with `--expose-gc` (`npm start` and the image do). Booting leaves about 10 MB of
 * dead buffers (PGlite's WASM binary and data bundle once compiled, the template's reads) that
 * V8 has no reason to collect in an idle process: they stay resident until traffic makes
 * garbage of its own. One full collection (tens of milliseconds) gives them back: the idle
 * embedded default goes from about 208 to 196 MB resident. Without the flag, nothing happens.
 */
export function collectBootGarbage(gc: (() => void) | undefined = (globalThis as { gc?: () => void }).gc, delayMs = BOOT_GARBAGE_DELAY_MS): NodeJS.Timeout | undefined {
  if (typeof gc !== 'function') return undefined;
  return setTimeout(() => gc(), delayMs).unref();
}
