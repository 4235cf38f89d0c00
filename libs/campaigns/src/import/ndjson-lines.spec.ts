import { describe, expect, it } from 'vitest';
import { ndjsonLines, textLines } from './ndjson-lines.js';

async function collect(lines: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

async function* chunks(...parts: (string | Buffer)[]): AsyncGenerator<Buffer | string> {
  yield* parts;
}

describe('ndjsonLines', () => {
  it('splits on \\n and \\r\\n across chunk boundaries, keeping blank lines and a last line without newline', async () => {
    const bytes = Buffer.from('{"a":"é"}\r\n\n{"b":1}\n{"c":"агент"}');
    const parts = [...bytes].map((b) => Buffer.from([b]));
    expect(await collect(ndjsonLines(chunks(...parts)))).toEqual(['{"a":"é"}', '', '{"b":1}', '{"c":"агент"}']);
    expect(await collect(ndjsonLines(chunks('x\r', '\ny\n')))).toEqual(['x', 'y']);
  });

  it('refuses a body over the byte limit and a line over the line limit, naming the line', async () => {
    await expect(collect(ndjsonLines(chunks('1234\n', '5678\n'), { maxBytes: 8, maxLineBytes: 100 }))).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    await expect(collect(ndjsonLines(chunks('ok\n', 'abcdef', 'ghij'), { maxBytes: 100, maxLineBytes: 8 }))).rejects.toThrow('line 2 is longer than 8 bytes');
  });
});

describe('textLines', () => {
  it('gives the lines of a string; a trailing newline opens no extra line', async () => {
    expect(await collect(textLines('a\r\nb\n\nc\n'))).toEqual(['a', 'b', '', 'c']);
    expect(await collect(textLines(''))).toEqual([]);
    expect(await collect(textLines('a'))).toEqual(['a']);
  });
});
