import type { Readable } from 'node:stream';
import * as sax from 'sax';
import { DatasetFileError } from './dataset-row';
import { textChunks } from './text-chunks';

/** A small element tree of one record (names without namespace prefix). */
export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

export type XmlItem =
  /** The document's root element, attributes only, as soon as it opens. */
  | { kind: 'root'; node: XmlNode }
  /** A whole record element, or another element named in `alsoCapture` found outside records. */
  | { kind: 'element'; node: XmlNode; index: number }
  /** A record during which the XML was malformed; parsing resumes after it. */
  | { kind: 'broken'; index: number; message: string };

const MAX_XML_ERRORS = 1000;

function localName(name: string): string {
  const i = name.indexOf(':');
  return i >= 0 ? name.slice(i + 1) : name;
}

/** First child with this name. */
export function child(node: XmlNode | undefined, name: string): XmlNode | undefined {
  return node?.children.find((c) => c.name === name);
}

export function children(node: XmlNode | undefined, name: string): XmlNode[] {
  return node ? node.children.filter((c) => c.name === name) : [];
}

/** Text of the element at a path of child names, trimmed; undefined when absent. */
export function textAt(node: XmlNode | undefined, ...path: string[]): string | undefined {
  let n = node;
  for (const p of path) n = child(n, p);
  return n?.text.trim();
}

/**
 * Streams the elements named `recordElement` of an XML document as small trees, one record
 * at a time, with sax (no DOM of the file is ever built). Each chunk of the file is parsed
 * when the consumer asks for more, and its records are handed over as one array.
 */
export async function* xmlRecords(
  input: Readable,
  options: { recordElement: string; alsoCapture?: string[] },
): AsyncGenerator<XmlItem[]> {
  const parser = sax.parser(true, { trim: false, normalize: false });
  const out: XmlItem[] = [];
  const capture = new Set([options.recordElement, ...(options.alsoCapture ?? [])]);
  let stack: XmlNode[] = [];
  let capturing = false;
  let isRecord = false;
  let index = 0;
  let sawRoot = false;
  let brokenRecord: string | undefined;
  let errors = 0;

  parser.onopentag = (tag) => {
    const name = localName(tag.name);
    const attrs = tag.attributes as Record<string, string>;
    if (!sawRoot) {
      sawRoot = true;
      out.push({ kind: 'root', node: { name, attrs, children: [], text: '' } });
      return;
    }
    if (!capturing) {
      if (!capture.has(name)) return;
      capturing = true;
      isRecord = name === options.recordElement;
      if (isRecord) index += 1;
      brokenRecord = undefined;
      stack = [{ name, attrs, children: [], text: '' }];
      return;
    }
    const node: XmlNode = { name, attrs, children: [], text: '' };
    stack[stack.length - 1].children.push(node);
    stack.push(node);
  };
  parser.ontext = (t) => {
    if (capturing && stack.length) stack[stack.length - 1].text += t;
  };
  parser.oncdata = parser.ontext;
  parser.onclosetag = () => {
    if (!capturing) return;
    const node = stack.pop()!;
    if (stack.length > 0) return;
    capturing = false;
    if (brokenRecord !== undefined) out.push({ kind: 'broken', index, message: brokenRecord });
    else out.push({ kind: 'element', node, index: isRecord ? index : 0 });
  };
  parser.onerror = (err) => {
    errors += 1;
    const message = err.message.split('\n')[0];
    if (!capturing || !isRecord || errors > MAX_XML_ERRORS) {
      throw new DatasetFileError(`malformed XML${index ? ` after record ${index}` : ''}: ${message}`);
    }
    brokenRecord ??= message;
    // sax keeps going once the error is cleared; the record is reported as broken.
    (parser as unknown as { error: Error | null }).error = null;
  };
  for await (const chunk of textChunks(input)) {
    parser.write(chunk);
    if (out.length) yield out.splice(0);
  }
  parser.close();
  if (out.length) yield out.splice(0);
  if (capturing) throw new DatasetFileError(`unexpected end of file inside record ${index} (truncated file?)`);
  if (!sawRoot) throw new DatasetFileError('empty file: no XML root element');
}
