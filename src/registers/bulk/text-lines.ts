import type { Readable } from 'node:stream';
import { textChunks } from './text-chunks';

/**
 * Lines of a UTF-8 stream with their 1-based numbers (\n or \r\n), the lines of each chunk
 * as one array, read as the consumer asks: one chunk of the file is held at a time.
 */
export async function* textLines(
  input: Readable,
  maxLineBytes = 64 * 1024 * 1024,
): AsyncGenerator<Array<{ line: string; number: number }>> {
  let pending = '';
  let number = 0;
  for await (const chunk of textChunks(input)) {
    const lines: Array<{ line: string; number: number }> = [];
    let start = 0;
    let nl = chunk.indexOf('\n');
    while (nl >= 0) {
      let line = pending + chunk.slice(start, nl);
      pending = '';
      if (line.endsWith('\r')) line = line.slice(0, -1);
      number += 1;
      lines.push({ line, number });
      start = nl + 1;
      nl = chunk.indexOf('\n', start);
    }
    pending += chunk.slice(start);
    if (lines.length) yield lines;
    if (pending.length > maxLineBytes) throw new Error(`line ${number + 1} is longer than ${maxLineBytes} characters`);
  }
  if (pending !== '') {
    number += 1;
    yield [{ line: pending.endsWith('\r') ? pending.slice(0, -1) : pending, number }];
  }
}
