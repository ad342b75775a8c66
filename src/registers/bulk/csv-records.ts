import type { Readable } from 'node:stream';
import { DatasetFileError, Rejection } from './dataset-row';
import { textChunks } from './text-chunks';

/**
 * `plain`: no field of the record holds a backslash, tab, carriage return or line feed — the
 * characters COPY's text format escapes — so a writer may pass its values through as they are.
 */
export type CsvItem =
  { kind: 'record'; fields: string[]; line: number; plain: boolean } | { kind: 'rejected'; rejection: Rejection };

export interface CsvOptions {
  /** One character; ',' by default. */
  delimiter?: string;
  /**
   * Quotes inside an unquoted field are plain text (ASIC's tab-delimited files write names
   * such as `THE "BEST" PTY LTD` without quoting the field).
   */
  relaxQuotes?: boolean;
  /** A quoted field running longer than this is a broken file (an unclosed quote), not a record. */
  maxRecordChars?: number;
  /**
   * Which columns the reader uses, by position; the others are read past and given as ''
   * (a 55-column file of which 18 are used costs a third of the strings). The reader may set
   * it once it has read the header: it applies from the next chunk of the file.
   */
  keep?: { columns: boolean[] | null };
}

const QUOTE = 34;
const LF = 10;
const CR = 13;

/**
 * A streaming RFC 4180 reader (quoted fields, doubled quotes, CR LF, line breaks inside
 * quotes), several times faster than a general-purpose CSV library on files of millions of
 * lines. It yields the records of each chunk of the file as one array, so the per-record cost
 * is a loop iteration, not an async step. A record with a quote in the wrong place becomes a
 * rejection and reading resumes at the next line.
 */
export async function* csvRecords(input: Readable, options: CsvOptions = {}): AsyncGenerator<CsvItem[]> {
  const delimiter = (options.delimiter ?? ',').charCodeAt(0);
  const relaxQuotes = options.relaxQuotes ?? false;
  const maxRecordChars = options.maxRecordChars ?? 4 * 1024 * 1024;
  const keep = options.keep ?? { columns: null };
  let pending = '';
  let line = 1;
  let first = true;
  let tailOf: boolean[] | null = null;
  let tail: UnusedTail | null = null;

  /**
   * Parses the complete records at the start of `text`; returns them and where the
   * unfinished rest begins. `final` treats the end of text as the end of the last record.
   */
  const parse = (text: string, final: boolean): { items: CsvItem[]; rest: number } => {
    const items: CsvItem[] = [];
    const n = text.length;
    // A few native scans of the chunk vouch for every one-line record in it (a carriage return
    // before a line feed ends a line, and is in no field).
    const plainText = text.indexOf('\\') < 0 && text.indexOf('\t') < 0 && crOnlyBeforeLf(text);
    const columns = keep.columns;
    if (columns !== tailOf) {
      tailOf = columns;
      tail = columns === null || relaxQuotes ? null : unusedTail(columns, delimiter);
    }
    /**
     * At a delimiter: when it follows the last used column and the record's unused rest is
     * simple, that rest read in one match; returns where the next record starts, or -1.
     */
    const pastTail = (at: number): number => {
      if (tail === null || fields.length !== tail.from) return -1;
      tail.pattern.lastIndex = at;
      if (!tail.pattern.test(text)) return -1;
      for (let k = 0; k < tail.count; k++) fields.push('');
      return tail.pattern.lastIndex;
    };
    let fields: string[] = [];
    let pos = 0;
    // The next line feed at or after a position, remembered so counting stays linear.
    let nlAt = -2;
    const nextNl = (from: number): number => {
      if (nlAt === -1 || nlAt >= from) return nlAt;
      nlAt = text.indexOf('\n', from);
      return nlAt;
    };
    while (pos < n) {
      const recordStart = pos;
      const recordLine = line;
      let lines = 0;
      fields = [];
      let broken: string | null = null;
      let complete: boolean;
      let i = pos;
      // One field per iteration.
      for (;;) {
        const fieldStart = i;
        if (i < n && text.charCodeAt(i) === QUOTE) {
          // Quoted field: find the closing quote, unescaping doubled quotes. The text of a
          // column the reader does not use is not cut out at all (37 of the GB file's 55).
          const kept = columns === null || columns[fields.length] !== false;
          let value = '';
          let from = i + 1;
          let j = from;
          let closed = false;
          while (j < n) {
            const q = text.indexOf('"', j);
            if (q < 0) break;
            if (nlAt !== -1 && q > nlAt) for (let k = nextNl(j); k >= 0 && k < q; k = nextNl(k + 1)) lines += 1;
            if (q + 1 < n && text.charCodeAt(q + 1) === QUOTE) {
              if (kept) value += text.slice(from, q + 1);
              from = q + 2;
              j = q + 2;
              continue;
            }
            if (q + 1 >= n && !final) break; // the next chunk may start with a second quote
            if (kept) value += text.slice(from, q);
            j = q + 1;
            closed = true;
            break;
          }
          if (!closed) {
            if (!final) {
              if (n - recordStart > maxRecordChars)
                throw new DatasetFileError(
                  `CSV record at line ${recordLine} runs past ${maxRecordChars} characters: an unclosed quote?`,
                );
              return { items, rest: recordStart };
            }
            broken = 'unclosed quote at the end of the file';
            i = n;
            complete = true;
            break;
          }
          fields.push(value);
          i = j;
          if (i >= n) {
            if (!final) return { items, rest: recordStart };
            complete = true;
            break;
          }
          const c = text.charCodeAt(i);
          if (c === delimiter) {
            const next = pastTail(i);
            if (next >= 0) {
              i = next;
              lines += 1;
              complete = true;
              break;
            }
            i += 1;
            continue;
          }
          if (c === LF || (c === CR && i + 1 < n && text.charCodeAt(i + 1) === LF)) {
            i += c === CR ? 2 : 1;
            lines += 1;
            complete = true;
            break;
          }
          if (c === CR && i + 1 >= n && !final) return { items, rest: recordStart };
          if (relaxQuotes) {
            // `"THE" BEST PTY LTD`: the quotes were text; read the field again as unquoted.
            fields.pop();
            let k = fieldStart;
            while (k < n && text.charCodeAt(k) !== delimiter && text.charCodeAt(k) !== LF) k += 1;
            if (k >= n && !final) return { items, rest: recordStart };
            const e = k < n && text.charCodeAt(k) === LF && k > fieldStart && text.charCodeAt(k - 1) === CR ? k - 1 : k;
            fields.push(text.slice(fieldStart, e));
            if (k < n && text.charCodeAt(k) === delimiter) {
              i = k + 1;
              continue;
            }
            i = k < n ? k + 1 : n;
            lines += k < n ? 1 : 0;
            complete = true;
            break;
          }
          // Text after a closing quote: skip to the end of the line and reject the record.
          broken = `characters after a closing quote in field ${fields.length}`;
          const nl = text.indexOf('\n', i);
          if (nl < 0 && !final) return { items, rest: recordStart };
          i = nl < 0 ? n : nl + 1;
          lines += nl < 0 ? 0 : 1;
          complete = true;
          break;
        }
        // Unquoted field: up to the delimiter or the end of the line.
        let j = i;
        while (j < n) {
          const c = text.charCodeAt(j);
          if (c === delimiter || c === LF) break;
          if (c === QUOTE && !relaxQuotes && broken === null)
            broken = `a quote inside unquoted field ${fields.length + 1}`;
          j += 1;
        }
        if (j >= n && !final) return { items, rest: recordStart };
        let end = j;
        if (j < n && text.charCodeAt(j) === LF && end > i && text.charCodeAt(end - 1) === CR) end -= 1;
        else if (j >= n && end > i && text.charCodeAt(end - 1) === CR) end -= 1;
        fields.push(columns !== null && columns[fields.length] === false ? '' : text.slice(i, end));
        if (j < n && text.charCodeAt(j) === delimiter) {
          const next = pastTail(j);
          if (next >= 0) {
            i = next;
            lines += 1;
            complete = true;
            break;
          }
          i = j + 1;
          continue;
        }
        i = j < n ? j + 1 : n;
        lines += j < n ? 1 : 0;
        complete = true;
        break;
      }
      if (!complete) return { items, rest: recordStart };
      pos = i;
      line += lines;
      if (first) {
        first = false;
        if (fields.length > 0 && fields[0].charCodeAt(0) === 0xfeff) fields[0] = fields[0].slice(1);
      }
      const empty = fields.length === 1 && fields[0] === '';
      if (broken !== null)
        items.push({
          kind: 'rejected',
          rejection: { at: recordLine, reason: 'unreadable CSV record', detail: broken },
        });
      else if (!empty) items.push({ kind: 'record', fields, line: recordLine, plain: plainText && lines <= 1 });
    }
    return { items, rest: n };
  };

  for await (const chunk of textChunks(input)) {
    const text = pending === '' ? chunk : pending + chunk;
    const { items, rest } = parse(text, false);
    pending = rest < text.length ? text.slice(rest) : '';
    if (items.length) yield items;
  }
  if (pending !== '') {
    const { items } = parse(pending, true);
    if (items.length) yield items;
  }
}

interface UnusedTail {
  /** The first column after the last one used. */
  from: number;
  count: number;
  /** From the delimiter before `from`: exactly `count` simple fields (quoted without quotes or line breaks inside, or unquoted), then the line's end. */
  pattern: RegExp;
}

/**
 * The columns after the last one a reader uses (25 of the GB file's 55): most records' rest is
 * read by one sticky regular expression, native code, instead of field by field; a rest it
 * does not match (a doubled quote, a line break inside quotes, a wrong count) is read the
 * usual way, so nothing changes but the time.
 */
function unusedTail(columns: boolean[], delimiter: number): UnusedTail | null {
  const last = columns.lastIndexOf(true);
  const count = columns.length - last - 1;
  if (last < 0 || count < 2) return null;
  const d = `\\x${delimiter.toString(16).padStart(2, '0')}`;
  return {
    from: last + 1,
    count,
    pattern: new RegExp(`(?:${d}(?:"[^"\\r\\n]*"|[^${d}"\\r\\n]*)){${count}}\\r?\\n`, 'y'),
  };
}

function crOnlyBeforeLf(text: string): boolean {
  for (let cr = text.indexOf('\r'); cr >= 0; cr = text.indexOf('\r', cr + 1)) {
    if (text.charCodeAt(cr + 1) !== LF) return false;
  }
  return true;
}

/** Column positions by header name (trimmed: the GB file writes " CompanyNumber"), case-insensitive. */
export function headerIndex(header: string[]): (name: string) => number {
  const map = new Map<string, number>();
  header.forEach((h, i) =>
    map.set(
      h
        .replace(/^\uFEFF/, '')
        .trim()
        .toLowerCase(),
      i,
    ),
  );
  return (name) => map.get(name.toLowerCase()) ?? -1;
}
