import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { manifestObject } from './manifest-fields.schema.js';
import { parseYamlDocument } from './yaml-document.parser.js';

const schema = manifestObject({
  id: z.string(),
  items: z.array(manifestObject({ n: z.number(), tags: z.array(z.string()).optional() })),
  labels: z.record(z.string(), z.string()).optional(),
});

describe('parseYamlDocument', () => {
  it('returns the value of a valid document, aliases resolved', () => {
    expect(parseYamlDocument('id: a\nitems:\n  - &one { n: 1 }\n  - *one\n', schema)).toEqual({ ok: true, value: { id: 'a', items: [{ n: 1 }, { n: 1 }] } });
  });

  it.each([
    ['an unclosed flow sequence', 'id: a\nitems: [1\nlabels: {}\n', [{ line: 3, column: 1, message: 'invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]' }]],
    ['a duplicate key', 'id: a\nitems: []\nid: b\n', [{ line: 3, column: 1, message: 'invalid YAML: Map keys must be unique' }]],
    ['a tab used as indentation', 'id: a\nitems:\n\t- n: 1\n', [{ line: 3, column: 1, message: 'invalid YAML: Tabs are not allowed as indentation' }]],
    ['an unterminated string', 'id: "a\nitems: []\n', [{ line: 3, column: 1, message: 'invalid YAML: Missing closing "quote' }]],
    ['several documents', 'id: a\nitems: []\n---\nid: b\n', [{ line: 3, column: 1, message: 'invalid YAML: expected a single document, got several (remove the extra "---")' }]],
  ])('reports %s with line and column, and nothing else', (_, text, expected) => {
    const result = parseYamlDocument(text, schema);
    expect(result).toEqual({ ok: false, errors: expected.map((e) => ({ path: '(yaml)', ...e })) });
  });

  it('reports an alias to a missing anchor', () => {
    expect(parseYamlDocument('id: *nope\nitems: []\n', schema)).toEqual({
      ok: false,
      errors: [{ path: '(yaml)', message: 'invalid YAML: Unresolved alias (the anchor must be set before the alias): nope' }],
    });
  });

  it('reports an empty document and a document that is not a map', () => {
    expect(parseYamlDocument('', schema)).toEqual({ ok: false, errors: [{ path: '(root)', message: 'expected a map, got an empty document' }] });
    expect(parseYamlDocument('# nothing but a comment\n', schema)).toEqual({ ok: false, errors: [{ path: '(root)', message: 'expected a map, got an empty document' }] });
    expect(parseYamlDocument('\n- id: a\n', schema)).toEqual({ ok: false, errors: [{ path: '(root)', message: 'expected a map, got a list of 1 item', line: 2 }] });
    expect(parseYamlDocument('just text\n', schema)).toEqual({ ok: false, errors: [{ path: '(root)', message: 'expected a map, got "just text"', line: 1 }] });
  });

  it('points at the offending node: a value, a list item, an unknown key, the map that lacks a field', () => {
    const text = ['# header', 'id: 7', 'items:', '  - n: one', '  - n: 2', '    tags:', '      - ok', '      - 3', '    extra: true', '  - {}', 'labels:', '  a: b', '  c: [d]'].join('\n');
    const result = parseYamlDocument(text, schema);
    expect(result).toEqual({
      ok: false,
      errors: [
        { path: 'id', message: 'expected a string, got 7', line: 2 },
        { path: 'items[0].n', message: 'expected a number, got "one"', line: 4 },
        { path: 'items[1].tags[1]', message: 'expected a string, got 3', line: 8 },
        { path: 'items[1].extra', message: 'unknown key "extra"; allowed keys: n, tags', line: 9 },
        { path: 'items[2].n', message: 'missing required field (expected a number)', line: 10 },
        { path: 'labels.c', message: 'expected a string, got a list of 1 item', line: 13 },
      ],
    });
  });

  it('sorts errors by line even when the schema reports them in another order', () => {
    // zod reports unknown keys after the known ones; the file order wins.
    const result = parseYamlDocument('zzz: 1\nid: 2\nitems: []\n', schema);
    expect(result.ok === false && result.errors.map((e) => [e.line, e.path])).toEqual([
      [1, 'zzz'],
      [2, 'id'],
    ]);
  });

  it('refuses values JSON cannot hold (YAML tags) and __proto__ keys, before the schema', () => {
    const text = 'id: !!binary aGVsbG8=\nitems:\n  - !!set { a, b }\n  - n: !!timestamp 2001-12-14\n  - !!omap [ { n: 1 } ]\nlabels:\n  __proto__: x\n';
    expect(parseYamlDocument(text, schema)).toEqual({
      ok: false,
      errors: [
        { path: 'id', message: 'expected a string, number, boolean, list or map, got binary data', line: 1 },
        { path: 'items[0]', message: 'expected a string, number, boolean, list or map, got a set', line: 3 },
        { path: 'items[1].n', message: 'expected a string, number, boolean, list or map, got a timestamp', line: 4 },
        { path: 'items[2]', message: 'expected a string, number, boolean, list or map, got an ordered map', line: 5 },
        { path: 'labels.__proto__', message: 'expected a key other than "__proto__"', line: 7 },
      ],
    });
  });

  it('reports keys that are not plain in brackets, at the key line', () => {
    const result = parseYamlDocument('id: a\nitems: []\nlabels:\n  "a.b": 1\n  "with space": x\n  7: 8\n', schema);
    expect(result).toEqual({
      ok: false,
      errors: [
        { path: 'labels["a.b"]', message: 'expected a string, got 1', line: 4 },
        { path: 'labels["7"]', message: 'expected a string, got 8', line: 6 },
      ],
    });
  });
});
