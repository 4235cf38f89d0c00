import { describe, expect, it } from 'vitest';
import { hasTodo } from './agent.js';
import { readConfig } from './config.js';
import { noticeProbability } from './flows.js';
import { applySite, mutationSites } from './mutate.js';
import { parsePlan, partition, topoOrder, type PlanStep } from './plan.js';
import { hash32, pick, roll } from './rng.js';
import { compiles, regionBody, withRegion } from './workspace.js';

const step = (id: string, dependsOn: string[] = [], effort = 1, file = 'src/a.js'): PlanStep => ({ id, file, fragment: `// ${id}`, dependsOn, effort });

describe('rng', () => {
  it('is a pure function of the seed and the key', () => {
    expect(roll(7, 'mistake', 'a', 0)).toBe(roll(7, 'mistake', 'a', 0));
    expect(roll(7, 'mistake', 'a', 0)).not.toBe(roll(8, 'mistake', 'a', 0));
    expect(roll(7, 'mistake', 'a', 0)).not.toBe(roll(7, 'mistake', 'a', 1));
    expect(hash32('')).toBe(0x811c9dc5);
  });

  it('is roughly uniform', () => {
    const n = 4000;
    let sum = 0;
    const buckets = [0, 0, 0, 0];
    for (let i = 0; i < n; i++) {
      const r = roll(1, 'u', i);
      expect(r).toBeGreaterThanOrEqual(0);
      expect(r).toBeLessThan(1);
      sum += r;
      buckets[pick(4, 1, 'p', i)]++;
    }
    expect(sum / n).toBeGreaterThan(0.47);
    expect(sum / n).toBeLessThan(0.53);
    for (const b of buckets) expect(b).toBeGreaterThan(n / 4 - 150);
  });
});

describe('plan', () => {
  it('orders by dependency, stable in plan order, and rejects cycles', () => {
    const steps = [step('c', ['b']), step('a'), step('b', ['a']), step('d')];
    expect(topoOrder(steps).map((s) => s.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(() => topoOrder([step('x', ['y']), step('y', ['x'])])).toThrow(/cycle/);
    expect(() => parsePlan(JSON.stringify({ task: 't', steps: [step('x', ['nope'])] }))).toThrow(/unknown step nope/);
  });

  it('keeps joins and what follows them for the main agent, and gives each tree to a sub-agent', () => {
    const steps = [step('a'), step('a2', ['a']), step('b'), step('c'), step('j', ['a2', 'b']), step('k', ['j']), step('c2', ['c'])];
    const { groups, joins } = partition(steps, 8);
    expect(joins.map((s) => s.id)).toEqual(['j', 'k']);
    expect(groups.map((g) => g.map((s) => s.id))).toEqual([['a', 'a2'], ['b'], ['c', 'c2']]);
  });

  it('packs trees into at most `width` groups, biggest first into the lightest group', () => {
    const steps = [step('a', [], 5), step('b', [], 4), step('c', [], 3), step('d', [], 2), step('e', [], 1)];
    const { groups } = partition(steps, 2);
    expect(groups.map((g) => g.map((s) => s.id))).toEqual([['a', 'd', 'e'], ['b', 'c']]);
    expect(partition(steps, 1).groups).toHaveLength(1);
  });

  it('a chain is one group: nothing to parallelise', () => {
    const steps = [step('a'), step('b', ['a']), step('c', ['b'])];
    expect(partition(steps, 4).groups).toHaveLength(1);
  });
});

describe('mutate', () => {
  it('finds operator sites in code only', () => {
    const code = "if (a <= b && c === 'x < y') return f(i + 1); // a > b\nconst re = /a<b/;";
    const sites = mutationSites(code);
    expect(sites.map((s) => code.slice(s.index, s.index + s.length))).toEqual(['<=', '&&', '===', ' + 1']);
    expect(applySite(code, sites[0])).toContain('a < b');
    expect(applySite(code, sites[3])).toContain('f(i)');
  });

  it('leaves arrows, shifts and template strings alone', () => {
    expect(mutationSites('const f = (x) => x >> y;\nconst s = `a < ${b}`;')).toEqual([]);
  });

  it('nudges small integer literals, not decimals or identifiers', () => {
    const code = 'x = a[1] + v2 + 0.5 + 10;';
    const sites = mutationSites(code);
    expect(sites.map((s) => [code.slice(s.index, s.index + s.length), s.replacement])).toEqual([['1', '2']]);
  });

  it('swaps booleans and min/max, and nothing else by name', () => {
    expect(mutationSites('constructor(a) { this.toString = a; }')).toEqual([]);
    const code = 'return Math.min(a, true);';
    expect(mutationSites(code).map((s) => s.replacement)).toEqual(['Math.max', 'false']);
  });
});

describe('workspace regions', () => {
  const starter = 'export class A {\n  // @step one\n  // TODO: one\n  // @end\n}\n';

  it('replaces a region body and reads it back', () => {
    const text = withRegion(starter, 'one', '  one() {\n    return 1;\n  }');
    expect(text).toBe('export class A {\n  // @step one\n  one() {\n    return 1;\n  }\n  // @end\n}\n');
    expect(regionBody(text, 'one')).toBe('  one() {\n    return 1;\n  }');
    expect(regionBody(text, 'two')).toBeNull();
    expect(hasTodo(starter)).toBe(true);
    expect(hasTodo(text)).toBe(false);
  });

  it('appends a missing region', () => {
    expect(withRegion('const x = 1;', 'two', 'const y = 2;')).toBe('const x = 1;\n// @step two\nconst y = 2;\n// @end\n');
  });

  it('checks that a module compiles without running it', () => {
    expect(compiles("import { a } from './a.js';\nexport function f() { return a < 1; }")).toBe(true);
    expect(compiles('export function f() { return a <; }')).toBe(false);
  });
});

describe('config and integration attention', () => {
  it('reads the knobs with defaults', () => {
    const cfg = readConfig({ FANOUT_MODE: 'concurrent', FANOUT_SEED: '12', DEMO_FANOUT_WIDTH: '3', FANOUT_DEADLINE: '2030-01-01T00:00:00Z' }, '/ws');
    expect(cfg).toMatchObject({ workspace: '/ws', seed: 12, concurrent: true, width: 3, unitMs: 80, checker: 0, rewriteShare: 0.4, planPath: '/ws/.demo-plan.json' });
    expect(cfg.deadline).toBe(Date.parse('2030-01-01T00:00:00Z'));
    expect(readConfig({ FANOUT_MODE: 'concurrent', DEMO_CONCURRENCY: 'off' }, '/ws').concurrent).toBe(false);
    expect([undefined, 'off', 'on', '0.5', '3'].map((v) => readConfig({ DEMO_CHECKER: v }, '/ws').checker)).toEqual([0, 0, 1, 0.5, 1]);
  });

  it('notices less as the fan-out grows', () => {
    expect(noticeProbability(1, false)).toBe(1);
    expect(noticeProbability(2, false)).toBeGreaterThan(noticeProbability(4, false));
    expect(noticeProbability(4, true)).toBeGreaterThan(noticeProbability(4, false));
  });
});
