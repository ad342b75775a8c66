import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

/** V8's full garbage collection, made available without --expose-gc on the command line. */
export function forceGc(): () => void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  return gc;
}

export interface MemoryPeaks {
  /** Highest heap in use right after a full collection: what the code really keeps. */
  liveHeapGrowth: number;
  /** Highest resident set size seen (includes garbage not yet collected). */
  rssGrowth: number;
}

/**
 * Samples memory while `work` runs: every `everyMs` a full collection, then heapUsed (the live
 * heap), and the RSS. Growth is measured against a collected baseline taken just before.
 */
export async function measureMemory<T>(
  work: () => Promise<T>,
  everyMs = 1000,
): Promise<{ result: T; peaks: MemoryPeaks }> {
  const collect = forceGc();
  collect();
  const base = process.memoryUsage();
  let liveHeap = base.heapUsed;
  let rss = base.rss;
  const sample = () => {
    collect();
    const m = process.memoryUsage();
    liveHeap = Math.max(liveHeap, m.heapUsed);
    rss = Math.max(rss, m.rss);
  };
  const rssTimer = setInterval(() => (rss = Math.max(rss, process.memoryUsage().rss)), 50);
  const gcTimer = setInterval(sample, everyMs);
  try {
    const result = await work();
    return { result, peaks: { liveHeapGrowth: liveHeap - base.heapUsed, rssGrowth: rss - base.rss } };
  } finally {
    clearInterval(gcTimer);
    clearInterval(rssTimer);
  }
}
