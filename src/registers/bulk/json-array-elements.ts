import type { Readable } from 'node:stream';
import { DatasetFileError } from './dataset-row';
import { textChunks } from './text-chunks';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xfeff;
}

/** What `closingQuote` answers when the string goes on into the next chunk. */
const GOES_ON = -1;
/** …and that chunk begins with an escaped character (this one ends with an odd run of backslashes). */
const GOES_ON_ESCAPED = -2;

/**
 * Inside a string, from a character that is not escaped: the position of the closing quote,
 * or GOES_ON / GOES_ON_ESCAPED. Jumps from quote to quote (indexOf) instead of looking at
 * every character: most of a unit's text is in strings.
 */
function closingQuote(chunk: string, from: number): number {
  for (let i = from; ;) {
    const q = chunk.indexOf('"', i);
    const end = q < 0 ? chunk.length : q;
    // An odd run of backslashes before the quote (or the chunk's end) escapes it.
    let backslashes = 0;
    while (end - backslashes - 1 >= i && chunk.charCodeAt(end - backslashes - 1) === BACKSLASH) backslashes++;
    if (q < 0) return backslashes % 2 === 1 ? GOES_ON_ESCAPED : GOES_ON;
    if (backslashes % 2 === 0) return q;
    i = q + 1;
  }
}

/**
 * The elements of a top-level JSON array, streamed: the text of each element is cut out by
 * tracking nesting and strings, then handed to JSON.parse. About ten times faster than a
 * token-level streaming parser (stream-json) on Brønnøysund's 1 GB file, with the same flat
 * memory: one element (plus one chunk) is held at a time. Anything that is not a JSON array
 * of values is a DatasetFileError.
 */
export async function* jsonArrayElements(input: Readable, maxElementChars?: number): AsyncGenerator<unknown> {
  for await (const batch of jsonArrayBatches(input, maxElementChars)) yield* batch;
}

const SEPARATOR_OPEN = '{';
/** Text of an element begun in earlier chunks beyond which the quick way is not tried. */
const QUICK_CARRY_CHARS = 256 * 1024;
/** Failures in a row after which the quick way is not tried again in the file. */
const QUICK_FAILURES = 8;

/**
 * The quick way through a chunk of units: the text up to the last `}` `,` `{` (spaces aside) —
 * where two objects of the array meet, however the file is laid out — parsed as one array by
 * JSON.parse, with no look at each character. `text` must start where an element does. When
 * those three characters are in a string or in a nested array the cut text is not a list of
 * whole values and JSON.parse refuses it (null: the caller reads the text the exact way), so a
 * wrong guess costs time, never a value.
 */
function elementsUpToLastSeparator(text: string): { values: unknown[]; end: number } | null {
  for (let open = text.lastIndexOf(SEPARATOR_OPEN); open > 0; open = text.lastIndexOf(SEPARATOR_OPEN, open - 1)) {
    let comma = open - 1;
    while (comma >= 0 && isSpace(text.charCodeAt(comma))) comma--;
    if (comma < 0 || text.charCodeAt(comma) !== COMMA) continue;
    let close = comma - 1;
    while (close >= 0 && isSpace(text.charCodeAt(close))) close--;
    if (close < 0 || text.charCodeAt(close) !== CLOSE_BRACE) continue;
    try {
      const values = JSON.parse(`[${text.slice(0, comma)}]`) as unknown;
      return Array.isArray(values) && values.length > 0 ? { values, end: comma + 1 } : null;
    } catch {
      return null;
    }
  }
  return null;
}

/** The same, the elements that end in one chunk of the file yielded as one array. */
export async function* jsonArrayBatches(
  input: Readable,
  maxElementChars = 64 * 1024 * 1024,
): AsyncGenerator<unknown[]> {
  // Changed inside `exact` too: declared wide, so TypeScript does not narrow it to 'before'.
  let state = 'before' as 'before' | 'between' | 'element' | 'after';
  let depth = 0; // nesting inside the current element
  let inString = false;
  let escaped = false;
  let pending = ''; // text of the element so far, from earlier chunks
  let count = 0;
  const fail = (message: string): never => {
    throw new DatasetFileError(`not a JSON array of units (after element ${count}): ${message}`);
  };
  /** The `ended` elements of a span, `before` elements into the array: one JSON.parse for all (a broken span names the elements it holds). */
  const parseSpan = (span: string, ended: number, before: number): unknown[] => {
    let values: unknown;
    try {
      values = JSON.parse(span);
    } catch (err) {
      count = before;
      return fail(`one of elements ${before + 1}–${before + ended}: ${(err as Error).message}`);
    }
    if (!Array.isArray(values) || values.length !== ended)
      return fail(`${ended} elements expected, ${Array.isArray(values) ? values.length : 'none'} read`);
    return values;
  };

  /**
   * The elements that end in this chunk, found by tracking nesting and strings: the first may
   * have begun in an earlier chunk (its text so far in `pending`); they are parsed together,
   * by one JSON.parse of their span.
   */
  const exact = (chunk: string): unknown[] => {
    let head: string | null = null;
    let spanStart = -1;
    let spanEnd = -1;
    let ended = 0;
    let start = -1; // where the current element starts in this chunk
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (state === 'element') {
        if (inString) {
          if (escaped) {
            escaped = false;
            continue;
          }
          const q = closingQuote(chunk, i);
          if (q >= 0) {
            inString = false;
            i = q;
          } else {
            escaped = q === GOES_ON_ESCAPED;
            i = chunk.length;
          }
          continue;
        }
        if (c === QUOTE) inString = true;
        else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
        else if (c === CLOSE_BRACE || c === CLOSE_BRACKET || c === COMMA) {
          if (depth > 0 && c !== COMMA) depth--;
          else if (depth === 0) {
            // The element ends before this comma or closing bracket.
            if (ended === 0) {
              head = start < 0 ? pending : '';
              spanStart = start < 0 ? 0 : start;
            }
            spanEnd = i;
            ended++;
            count++;
            pending = '';
            start = -1;
            state = c === COMMA ? 'between' : 'after';
          }
        }
        continue;
      }
      if (isSpace(c)) continue;
      if (state === 'before') {
        if (c !== OPEN_BRACKET) fail('the file does not start with [');
        state = 'between';
        continue;
      }
      if (state === 'between') {
        if (c === CLOSE_BRACKET && count === 0) {
          state = 'after';
          continue;
        }
        if (c === COMMA || c === CLOSE_BRACKET) fail(`unexpected ${String.fromCharCode(c)}`);
        state = 'element';
        start = i;
        depth = 0;
        if (c === QUOTE) inString = true;
        else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth = 1;
        continue;
      }
      fail('text after the closing ]');
    }
    if (state === 'element') {
      pending += chunk.slice(start < 0 ? 0 : start);
      if (pending.length > maxElementChars) fail(`an element is longer than ${maxElementChars} characters`);
    }
    return ended > 0 ? parseSpan(`[${head}${chunk.slice(spanStart, spanEnd)}]`, ended, count - ended) : [];
  };

  // Text after the last element the quick way read, not scanned yet: it starts after a comma.
  let carry = '';
  // The quick way is tried while it works: not over an element longer than a few chunks (its
  // text would be joined again for each), nor after it failed a few times in a row (a file
  // whose units end in arrays of objects).
  let quickFailures = 0;
  for await (const chunk of textChunks(input)) {
    const started = state === 'element' ? pending.length : carry.length;
    if (
      count > 0 &&
      (state === 'between' || state === 'element') &&
      started <= QUICK_CARRY_CHARS &&
      quickFailures < QUICK_FAILURES
    ) {
      // Inside the array: `pending` or `carry` starts where an element does.
      const text = state === 'element' ? pending + chunk : carry + chunk;
      const quick = elementsUpToLastSeparator(text);
      quickFailures = quick ? 0 : quickFailures + 1;
      if (quick) {
        count += quick.values.length;
        carry = text.slice(quick.end);
        state = 'between';
        pending = '';
        depth = 0;
        inString = false;
        escaped = false;
        yield quick.values;
        continue;
      }
    }
    // The exact way: over the carried text first (it starts after a comma), or from where the
    // scan stood (an element begun in an earlier chunk: nothing is carried then).
    const values = exact(carry === '' ? chunk : carry + chunk);
    carry = '';
    if (values.length > 0) yield values;
  }
  if (carry !== '') {
    const values = exact(carry);
    if (values.length > 0) yield values;
  }
  if (state !== 'after') fail(state === 'before' ? 'the file is empty' : 'the array is not closed');
}
