/** How long after listening the boot's garbage is collected: once the first probes and the dictionary preload are done. */
export const BOOT_GARBAGE_DELAY_MS = 3_000;

/**
 * How long after that a second full collection runs: V8 gives the young generation's pages
 * back at a full collection only when the last five seconds allocated little (under 1 KB per
 * millisecond, its "low allocation throughput"), which the boot's own did not.
 */
export const YOUNG_GENERATION_SHRINK_DELAY_MS = 6_000;

/**
 * Collects the garbage of the boot, a moment after the process starts listening, when node
 * runs with `--expose-gc` (`npm start` and the image do). Booting leaves about 10 MB of dead
 * buffers (PGlite's WASM binary and data bundle once compiled, the template's reads) that V8
 * has no reason to collect in an idle process: they stay resident until traffic makes garbage
 * of its own. One full collection (tens of milliseconds) gives them back.
 *
 * The boot also grows V8's young generation to its full size (16 MB semi-spaces), about 30 MB
 * resident that an idle process does not need and that V8's memory reducer gives back only
 * after half a minute or so of quiet. A second collection, once the process has been quiet for
 * YOUNG_GENERATION_SHRINK_DELAY_MS, gives them back at once: the idle embedded default settles
 * near 185 MB instead of 215–220, while under load the young generation grows again and
 * scavenges stay as rare as V8 makes them (capping the semi-spaces at 2 MB instead, as
 * `npm start` once did, cost /registers a sixth of its CPU in garbage collection). If requests
 * come in meanwhile, the second collection only collects; the memory reducer shrinks later.
 * Without the flag, nothing happens.
 */
export function collectBootGarbage(
  gc: (() => void) | undefined = (globalThis as { gc?: () => void }).gc,
  delayMs = BOOT_GARBAGE_DELAY_MS,
  shrinkDelayMs = YOUNG_GENERATION_SHRINK_DELAY_MS,
): NodeJS.Timeout | undefined {
  if (typeof gc !== 'function') return undefined;
  return setTimeout(() => {
    gc();
    setTimeout(() => gc(), shrinkDelayMs).unref();
  }, delayMs).unref();
}
