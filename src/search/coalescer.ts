/**
 * Shares one in-flight read between identical concurrent requests. Nothing is kept once the
 * read settles: a live read is never cached and replayed as live.
 */
export class Coalescer {
  private readonly inFlight = new Map<string, Promise<unknown>>();

  run<T>(key: string, read: () => Promise<T>): Promise<T> {
    const existing = this.inFlight.get(key) as Promise<T> | undefined;
    if (existing) return existing;
    const promise = read().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, promise);
    return promise;
  }

  get size(): number {
    return this.inFlight.size;
  }
}
