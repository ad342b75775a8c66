/**
 * What GLEIF said of registration numbers: an LEI, or none (null), each for `ttlMs`, at most
 * `maxEntries` of them (the oldest answers go first). Only whole answers are kept: a lookup that
 * failed or timed out leaves nothing behind, so the next response asks again.
 */
export class LeiCache {
  private readonly entries = new Map<string, { lei: string | null; expires: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
  ) {}

  /** The LEI (string), known-none (null), or undefined when nothing fresh is known. */
  get(key: string, now: number): string | null | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.lei;
  }

  set(key: string, lei: string | null, now: number): void {
    this.entries.delete(key);
    this.entries.set(key, { lei, expires: now + this.ttlMs });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}
