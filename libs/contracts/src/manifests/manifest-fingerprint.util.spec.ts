import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, manifestHash } from './manifest-fingerprint.util.js';

/** The same value with the keys of every object in another order. */
function shuffleKeys(value: unknown, order: number[]): unknown {
  if (Array.isArray(value)) return value.map((v) => shuffleKeys(v, order));
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    const keyed = entries.map((entry, i) => ({ entry, rank: order[i % order.length]! }));
    keyed.sort((a, b) => a.rank - b.rank);
    return Object.fromEntries(keyed.map(({ entry: [k, v] }) => [k, shuffleKeys(v, order)]));
  }
  return value;
}

const json = fc.jsonValue();

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined fields', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[{"y":2,"z":1}]},"b":1}');
  });

  it('does not depend on key order (property)', () => {
    fc.assert(
      fc.property(json, fc.array(fc.nat(), { minLength: 1, maxLength: 8 }), (value, order) => {
        expect(canonicalJson(shuffleKeys(value, order))).toBe(canonicalJson(value));
      }),
    );
  });

  it('round-trips to an equal value (property)', () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(canonicalJson(JSON.parse(canonicalJson(value)))).toBe(canonicalJson(value));
      }),
    );
  });
});

describe('manifestHash', () => {
  it('is the sha256 of the text', () => {
    expect(manifestHash('')).toBe('sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(manifestHash('{"a":1}')).not.toBe(manifestHash('{"a":2}'));
  });
});
