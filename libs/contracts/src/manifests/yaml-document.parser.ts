import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type YAMLError } from 'yaml';
import type { z } from 'zod';
import { describeReceived, formatManifestPath, issueToErrors, type ManifestError, type ManifestResult, type RawManifestError } from './manifest-error.util.js';

function syntaxError(error: YAMLError, lines: LineCounter): ManifestError {
  const { line, col } = lines.linePos(error.pos[0]);
  // yaml's own wording for this one points at its API, not at the file.
  const message = error.code === 'MULTIPLE_DOCS' ? 'expected a single document, got several (remove the extra "---")' : error.message;
  return { path: '(yaml)', message: `invalid YAML: ${message}`, line, column: col };
}

/**
 * Line of the node at `segments`, or of its deepest existing ancestor (a
 * missing field points at the map that lacks it). A path ending at a map key
 * points at the key, so an unknown key is reported where it is written.
 */
function lineOf(doc: Document, lines: LineCounter, segments: readonly PropertyKey[]): number | undefined {
  let node: unknown = doc.contents;
  const start = (range: readonly number[] | null | undefined): number | undefined => (range ? lines.linePos(range[0]!).line : undefined);
  let line = isMap(node) || isSeq(node) || isScalar(node) ? start(node.range) : undefined;
  for (const segment of segments) {
    if (isMap(node)) {
      const pair = node.items.find((p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)) === String(segment));
      if (pair === undefined) break;
      line = isScalar(pair.key) ? (start(pair.key.range) ?? line) : line;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      const item: unknown = node.items[segment];
      if (!(isMap(item) || isSeq(item) || isScalar(item))) break;
      line = start(item.range) ?? line;
      node = item;
    } else break;
  }
  return line;
}

/**
 * Values that JSON cannot hold: YAML tags such as !!binary, !!set, !!omap or
 * !!timestamp give a Buffer, Set, Map or Date, which a schema would misread
 * as a map (a Buffer's methods as unknown keys). A `__proto__` key is
 * dropped by zod without a word, so it is refused here.
 */
function nonJsonValues(value: unknown, segments: PropertyKey[], out: RawManifestError[]): void {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => nonJsonValues(item, [...segments, i], out));
  } else if (Object.getPrototypeOf(value) !== Object.prototype) {
    out.push({ segments, message: `expected a string, number, boolean, list or map, got ${describeReceived(value)}` });
  } else {
    for (const [key, item] of Object.entries(value)) {
      if (key === '__proto__') out.push({ segments: [...segments, key], message: 'expected a key other than "__proto__"' });
      else nonJsonValues(item, [...segments, key], out);
    }
  }
}

function withLines(errors: RawManifestError[], doc: Document, lines: LineCounter): ManifestError[] {
  const located = errors.map((e): ManifestError => {
    const line = lineOf(doc, lines, e.segments);
    const error: ManifestError = { path: formatManifestPath(e.segments), message: e.message };
    if (line !== undefined) error.line = line;
    return error;
  });
  // Stable sort: errors on one line keep the schema's order.
  return located.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}

/**
 * Parses one YAML document and validates it with `schema`. Syntax errors
 * come with line and column (and stop there); schema errors come with the
 * YAML path and the line of the offending node, all of them, sorted by line.
 */
export function parseYamlDocument<T>(text: string, schema: z.ZodType<T>): ManifestResult<T> {
  const lines = new LineCounter();
  // logLevel 'error': yaml would otherwise print warnings (e.g. for map keys
  // that are collections) from inside a pure function.
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true, logLevel: 'error' });
  if (doc.errors.length > 0) {
    return { ok: false, errors: doc.errors.map((e) => syntaxError(e, lines)).sort((a, b) => a.line! - b.line! || a.column! - b.column!) };
  }
  if (doc.contents === null) return { ok: false, errors: [{ path: '(root)', message: 'expected a map, got an empty document' }] };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    // Unresolved or excessive aliases are only found while resolving them.
    return { ok: false, errors: [{ path: '(yaml)', message: `invalid YAML: ${(error as Error).message}` }] };
  }
  const unsupported: RawManifestError[] = [];
  nonJsonValues(value, [], unsupported);
  if (unsupported.length > 0) return { ok: false, errors: withLines(unsupported, doc, lines) };
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, errors: withLines(parsed.error.issues.flatMap((issue) => issueToErrors(issue)), doc, lines) };
}
