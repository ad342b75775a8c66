import { createHash } from 'node:crypto';

/** A company's place in the interval: fixed by its id, so checks spread evenly and stay put. */
export function offsetInInterval(entityId: string, intervalMs: number): number {
  return createHash('sha1').update(entityId).digest().readUInt32BE(0) % intervalMs;
}

/** The first check time of this company strictly after `after`. */
export function nextSlot(entityId: string, after: Date, intervalMs: number): Date {
  const offset = offsetInInterval(entityId, intervalMs);
  const t = after.getTime();
  const start = Math.floor(t / intervalMs) * intervalMs + offset;
  return new Date(start > t ? start : start + intervalMs);
}
