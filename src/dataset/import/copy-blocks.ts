/**
 * COPY lines gathered into blocks of bytes, each line encoded as UTF-8 straight into a
 * preallocated buffer. Concatenating the lines into one string and encoding it at the end
 * (`Buffer.from(a + b + …)`) cost V8 a flattening of a rope of thousands of pieces for every
 * block: a quarter of the importer's CPU time on the GB file, against a few percent this way.
 */
export class CopyBlocks {
  private block: Buffer;
  private used = 0;

  constructor(private readonly blockBytes = 256 * 1024) {
    this.block = Buffer.allocUnsafe(blockBytes);
  }

  /** Bytes waiting in the current block. */
  get length(): number {
    return this.used;
  }

  /**
   * Appends a line; returns the full block to send when the line did not fit in it (the line
   * then starts the next block), otherwise null.
   */
  add(line: string): Buffer | null {
    let full: Buffer | null = null;
    // A UTF-16 code unit is at most 3 bytes of UTF-8: with room for that many, the line fits.
    if (this.used + line.length * 3 > this.block.length) {
      if (this.used > 0) full = this.take();
      if (line.length * 3 > this.block.length) this.block = Buffer.allocUnsafe(line.length * 3);
    }
    this.used += this.block.write(line, this.used);
    return full;
  }

  /** The bytes gathered so far (possibly none), and a fresh block for the next lines. */
  take(): Buffer {
    const full = this.block.subarray(0, this.used);
    this.block = Buffer.allocUnsafe(this.blockBytes);
    this.used = 0;
    return full;
  }
}
