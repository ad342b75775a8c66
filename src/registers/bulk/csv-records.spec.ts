import { parse } from 'csv-parse/sync';
import { chunked, fixtureText } from '../../../test/support/dataset-fixtures';
import { CsvItem, csvRecords } from './csv-records';

async function read(text: string, chunk: number, options = {}): Promise<CsvItem[]> {
  const out: CsvItem[] = [];
  for await (const batch of csvRecords(chunked(text, chunk), options)) out.push(...batch);
  return out;
}

const records = (items: CsvItem[]) => items.flatMap((i) => (i.kind === 'record' ? [i.fields] : []));

describe('csvRecords', () => {
  it('reads the real GB sample exactly as csv-parse does, at any chunk size', async () => {
    const text = fixtureText('registers/gb/ch-bulk-basiccompanydata-sample.csv');
    const expected = parse(text, { relax_column_count: true, skip_empty_lines: true }) as string[][];
    for (const size of [1, 2, 3, 7, 64, 1000, 100_000]) {
      expect(records(await read(text, size))).toEqual(expected);
    }
  });

  it('handles quotes, doubled quotes, line breaks in quotes, CRLF, BOM, blank lines and a last line without newline', async () => {
    const text = '\uFEFFa,b,c\r\n"x, ""y""","multi\nline",3\r\n\r\n,,\nlast,"",end';
    const expected = [
      ['a', 'b', 'c'],
      ['x, "y"', 'multi\nline', '3'],
      ['', '', ''],
      ['last', '', 'end'],
    ];
    for (let size = 1; size <= text.length; size++) {
      const items = await read(text, size);
      expect(records(items)).toEqual(expected);
      expect(items.map((i) => (i.kind === 'record' ? i.line : -1))).toEqual([1, 2, 5, 6]);
    }
  });

  it('agrees with csv-parse on many generated files', async () => {
    const cells = ['', 'a', 'b c', '"q"', 'x,y', 'line\nbreak', 'crlf\r\nin', 'é ø 😀', ' pad '];
    let seed = 7;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let file = 0; file < 60; file++) {
      const rows: string[][] = [];
      for (let r = 0; r < 1 + rnd(6); r++) rows.push(Array.from({ length: 3 }, () => cells[rnd(cells.length)]));
      const eol = rnd(2) ? '\n' : '\r\n';
      const text =
        rows
          .map((row) => row.map((c) => (/[",\r\n]/.test(c) || rnd(2) ? `"${c.replace(/"/g, '""')}"` : c)).join(','))
          .join(eol) + (rnd(2) ? eol : '');
      const expected = parse(text, { relax_column_count: true, skip_empty_lines: true }) as string[][];
      expect(records(await read(text, 1 + rnd(9)))).toEqual(expected);
    }
  });

  it('rejects a record with a stray quote and goes on with the next line', async () => {
    const items = await read('a,b\n"bad "quote",x\nok,1\nun"quoted,2\nfine,3', 4);
    expect(items).toEqual([
      { kind: 'record', fields: ['a', 'b'], line: 1, plain: true },
      {
        kind: 'rejected',
        rejection: { at: 2, reason: 'unreadable CSV record', detail: 'characters after a closing quote in field 1' },
      },
      { kind: 'record', fields: ['ok', '1'], line: 3, plain: true },
      {
        kind: 'rejected',
        rejection: { at: 4, reason: 'unreadable CSV record', detail: 'a quote inside unquoted field 1' },
      },
      { kind: 'record', fields: ['fine', '3'], line: 5, plain: true },
    ]);
  });

  it('reads the unused columns after the last used one the quick way or the usual one, with the same records, lines and rejections', async () => {
    const text = [
      'h1,h2,h3,h4,h5',
      '"a","b","c","d","e"',
      'x,y,,"q""q",z',
      '1,2,3,4',
      '"m",n,"o\r\np",q,r',
      'k,l,m,n,o,p',
      'k,l,"m","n"x,o',
      'k,"l",m,"",""\r',
      'k,"l\nl",m,n,o',
      'last,1,2,3,4',
    ].join('\n');
    const used = [true, true, false, false, false];
    const summary = (items: CsvItem[]) =>
      items.map((i) =>
        i.kind === 'record' ? { line: i.line, count: i.fields.length, used: i.fields.slice(0, 2), plain: i.plain } : i,
      );
    for (const size of [1, 5, 16, 1000]) {
      const quick = await read(text, size, { keep: { columns: used } });
      expect(summary(quick)).toEqual(summary(await read(text, size)));
      expect(records(quick).every((f) => f.slice(2, 5).every((v) => v === ''))).toBe(true);
    }
  });

  it('calls a record plain only when it holds no backslash, tab, lone carriage return or line break', async () => {
    const plain = async (text: string) => (await read(text, 3)).map((i) => (i.kind === 'record' ? i.plain : null));
    expect(await plain('a,b\r\nc,d\r\n')).toEqual([true, true]);
    expect(await plain('a,"b\nc"\nd,e\n')).toEqual([false, true]);
    expect(await plain('a\\,b\nc,d\n')).toEqual([false, true]);
    expect(await plain('a,"b\tc"\nd,e\n')).toEqual([false, true]);
    expect(await plain('a,"b\rc"\nd,e\n')).toEqual([false, true]);
  });

  it('reads quotes as text in relaxed (tab-delimited) files', async () => {
    const items = await read('name\tacn\nTHE "BEST" PTY LTD\t1\n"QUOTED" START LTD\t2\n', 5, {
      delimiter: '\t',
      relaxQuotes: true,
    });
    expect(records(items)).toEqual([
      ['name', 'acn'],
      ['THE "BEST" PTY LTD', '1'],
      ['"QUOTED" START LTD', '2'],
    ]);
  });

  it('reports an unclosed quote at the end, and refuses a runaway quoted field', async () => {
    const items = await read('a,b\n1,"never closed\n2,3\n', 3);
    expect(items[1]).toEqual({
      kind: 'rejected',
      rejection: { at: 2, reason: 'unreadable CSV record', detail: 'unclosed quote at the end of the file' },
    });
    await expect(read(`a\n"${'x'.repeat(5000)}`, 100, { maxRecordChars: 1000 })).rejects.toThrow(
      'CSV record at line 2 runs past 1000 characters: an unclosed quote?',
    );
  });
});
