import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAgentConfigManifest } from './agent-config-manifest.parser.js';
import { parseBenchmarkManifest } from './benchmark-manifest.parser.js';
import { parseCampaignManifest } from './campaign-manifest.parser.js';
import { formatManifestErrors, type ManifestResult } from './manifest-error.util.js';

const example = (name: string): string => readFileSync(new URL(`../../../../examples/${name}`, import.meta.url), 'utf8');

function valueOf<T>(result: ManifestResult<T>, file: string): T {
  if (!result.ok) throw new Error(formatManifestErrors(result.errors, file));
  return result.value;
}

const benchmark = valueOf(parseBenchmarkManifest(example('benchmark.yaml')), 'examples/benchmark.yaml');
const agent = valueOf(parseAgentConfigManifest(example('agent.yaml')), 'examples/agent.yaml');
const campaign = valueOf(parseCampaignManifest(example('campaign.yaml')), 'examples/campaign.yaml');

describe('examples/', () => {
  it('benchmark.yaml: two suites, a dozen tasks over easy, medium and hard', () => {
    expect(benchmark.suites).toHaveLength(2);
    const tasks = benchmark.suites.flatMap((s) => s.tasks);
    expect(tasks).toHaveLength(12);
    expect(new Set(tasks.map((t) => t.difficulty))).toEqual(new Set(['easy', 'medium', 'hard']));
  });

  it('agent.yaml: one config with the modes concurrent and sequential', () => {
    expect(Object.keys(agent.modes).sort()).toEqual(['concurrent', 'sequential']);
  });

  it('campaign.yaml: refers to the example agent, its modes, and the example benchmark, suites and tasks', () => {
    expect(campaign.agents.map((a) => a.config)).toEqual([agent.name]);
    for (const mode of campaign.modes) expect(Object.keys(agent.modes)).toContain(mode);
    expect(campaign.benchmarks.some((b) => b.fraction === 0.2)).toBe(true);
    expect(campaign.benchmarks.some((b) => b.tasks !== undefined)).toBe(true);
    for (const entry of campaign.benchmarks) {
      expect(entry.id).toBe(benchmark.id);
      expect(entry.version ?? benchmark.version).toBe(benchmark.version);
      const suite = benchmark.suites.find((s) => s.id === entry.suite);
      expect(suite, entry.suite).toBeDefined();
      for (const task of entry.tasks ?? []) expect(suite!.tasks.map((t) => t.id)).toContain(task);
    }
  });
});

describe('docs/formats.md', () => {
  const docs = readFileSync(new URL('../../../../docs/formats.md', import.meta.url), 'utf8');
  const yamlOf = (heading: string): string => {
    const section = docs.slice(docs.indexOf(`## ${heading}`));
    const block = /```yaml\n([\s\S]*?)```/.exec(section.slice(0, section.indexOf('\n## ', 1) === -1 ? undefined : section.indexOf('\n## ', 1)));
    if (block === null) throw new Error(`no yaml example under "${heading}"`);
    return block[1]!;
  };

  it('has complete examples that parse', () => {
    valueOf(parseBenchmarkManifest(yamlOf('Benchmark manifest (YAML)')), 'formats.md benchmark example');
    valueOf(parseAgentConfigManifest(yamlOf('Agent config (YAML)')), 'formats.md agent example');
    valueOf(parseCampaignManifest(yamlOf('Campaign (YAML)')), 'formats.md campaign example');
  });
});
