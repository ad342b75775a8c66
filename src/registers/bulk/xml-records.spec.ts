import { chunked } from '../../../test/support/dataset-fixtures';
import { textAt, XmlItem, xmlRecords } from './xml-records';

async function read(xml: string, size: number): Promise<XmlItem[]> {
  const items: XmlItem[] = [];
  for await (const batch of xmlRecords(chunked(xml, size), { recordElement: 'r' })) items.push(...batch);
  return items;
}

/** Each record as its name, or as `broken`. */
async function names(xml: string, size: number): Promise<string[]> {
  return (await read(xml, size))
    .filter((i) => i.kind !== 'root')
    .map((i) => (i.kind === 'element' ? textAt(i.node, 'name')! : 'broken'));
}

const doc = (...names: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<root>${names.map((n) => `<r><name>${n}</name></r>`).join('\n')}</root>\n`;

describe('xmlRecords', () => {
  it('reads references whole wherever the chunks split them', async () => {
    const xml = doc('SMITH &amp; SONS', 'caf&#233; &#xE9;t&eacute;', 'LAST &lt;1&gt;');
    for (const size of [1, 2, 3, 5, 7, 11, 64, 4096])
      expect(await names(xml, size)).toEqual(['SMITH & SONS', 'café été', 'LAST <1>']);
  });

  it('rejects a record with a bare or an unknown ampersand, and only that record', async () => {
    // saxes, three times as fast, reads an entity name up to the next `;`: the rest of the file.
    const xml = doc('SMITH & SONS', 'NEXT', 'R&D;', 'LAST');
    for (const size of [1, 4, 7, 13, 4096])
      expect(await names(xml, size)).toEqual(['broken', 'NEXT', 'broken', 'LAST']);
  });

  it('leaves an ampersand in CDATA as it is', async () => {
    const xml = doc('<![CDATA[A & B &amp; C]]>', '<![CDATA[]]>F &amp; G');
    for (const size of [1, 3, 9, 4096]) expect(await names(xml, size)).toEqual(['A & B &amp; C', 'F & G']);
  });

  it('keeps a character XML 1.0 does not allow in the text instead of failing the record', async () => {
    expect(await names(doc('A\u000bB', 'C'), 5)).toEqual(['A\u000bB', 'C']);
  });

  it('reports a broken record and goes on; fails a truncated file', async () => {
    // An unmatched close tag spoils its record only (saxes closes every open element at it).
    expect(await names(doc('A', '<b>unclosed</c>', 'C'), 6)).toEqual(['A', 'broken', 'C']);
    await expect(read(doc('A', 'B').slice(0, -20), 8)).rejects.toThrow(/truncated/);
  });
});
