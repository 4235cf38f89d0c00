import type { CodebookPattern, TaxonomyLevel } from './kappa.js';

/** One trajectory's final (post-adjudication) labels. */
export interface AdjudicatedTrajectory {
  trajectoryId: string;
  agent: string;
  patterns: readonly string[];
}

export interface AgentShare {
  agent: string;
  instances: number;
  /** instances / all instances of that agent; null when the agent has none. */
  share: number | null;
  trajectories: number;
  /** trajectories with >= 1 such label / all trajectories of that agent. */
  trajectoryShare: number | null;
}

export interface DistributionRow {
  level: TaxonomyLevel;
  key: string;
  category: string;
  subcategory: string | null;
  /** (trajectory, pattern) labels under this node; a pattern counts once per trajectory. */
  instances: number;
  /** instances / all instances; null when there are none at all. */
  share: number | null;
  /** Trajectories with at least one label under this node. */
  trajectories: number;
  byAgent: AgentShare[];
}

export interface TaxonomyDistribution {
  totalInstances: number;
  totalTrajectories: number;
  /** Trajectories with at least one pattern. */
  trajectoriesWithPattern: number;
  rows: DistributionRow[];
}

/**
 * Instances per category, subcategory and pattern, with shares overall and
 * per agent. "No failure" is an ordinary codebook pattern here: whoever
 * reads the distribution sees it as its own row.
 */
export function taxonomyDistribution(
  codebook: readonly CodebookPattern[],
  trajectories: readonly AdjudicatedTrajectory[],
): TaxonomyDistribution {
  const byPattern = new Map(codebook.map((entry) => [entry.pattern, entry]));
  const agents = [...new Set(trajectories.map((t) => t.agent))].sort();
  const agentInstances = new Map<string, number>();
  const agentTrajectories = new Map<string, number>();
  interface Tally { instances: number; trajectories: number; perAgent: Map<string, { instances: number; trajectories: number }> }
  const tallies = new Map<string, Tally>();
  const nodes: Array<Omit<DistributionRow, 'instances' | 'share' | 'trajectories' | 'byAgent'>> = [];
  const seen = new Set<string>();
  const addNode = (level: TaxonomyLevel, key: string, category: string, subcategory: string | null): void => {
    const id = `${level}\u001f${key}`;
    if (seen.has(id)) return;
    seen.add(id);
    nodes.push({ level, key, category, subcategory });
    tallies.set(id, { instances: 0, trajectories: 0, perAgent: new Map() });
  };
  for (const entry of codebook) {
    addNode('category', entry.category, entry.category, null);
    addNode('subcategory', `${entry.category} / ${entry.subcategory}`, entry.category, entry.subcategory);
    addNode('pattern', entry.pattern, entry.category, entry.subcategory);
  }
  let totalInstances = 0;
  let withPattern = 0;
  for (const trajectory of trajectories) {
    const patterns = [...new Set(trajectory.patterns)];
    agentTrajectories.set(trajectory.agent, (agentTrajectories.get(trajectory.agent) ?? 0) + 1);
    agentInstances.set(trajectory.agent, (agentInstances.get(trajectory.agent) ?? 0) + patterns.length);
    totalInstances += patterns.length;
    if (patterns.length > 0) withPattern++;
    const touched = new Set<string>();
    for (const pattern of patterns) {
      const entry = byPattern.get(pattern);
      if (!entry) throw new RangeError(`taxonomy: trajectory ${trajectory.trajectoryId} has label "${pattern}", which is not in the codebook`);
      const ids = [
        `category\u001f${entry.category}`,
        `subcategory\u001f${entry.category} / ${entry.subcategory}`,
        `pattern\u001f${entry.pattern}`,
      ];
      for (const id of ids) {
        const tally = tallies.get(id)!;
        const agentTally = tally.perAgent.get(trajectory.agent) ?? { instances: 0, trajectories: 0 };
        tally.instances++;
        agentTally.instances++;
        if (!touched.has(id)) {
          touched.add(id);
          tally.trajectories++;
          agentTally.trajectories++;
        }
        tally.perAgent.set(trajectory.agent, agentTally);
      }
    }
  }
  const rows = nodes.map((node) => {
    const tally = tallies.get(`${node.level}\u001f${node.key}`)!;
    return {
      ...node,
      instances: tally.instances,
      share: totalInstances === 0 ? null : tally.instances / totalInstances,
      trajectories: tally.trajectories,
      byAgent: agents.map((agent) => {
        const own = tally.perAgent.get(agent) ?? { instances: 0, trajectories: 0 };
        const ofAgent = agentInstances.get(agent) ?? 0;
        const trajectoriesOfAgent = agentTrajectories.get(agent) ?? 0;
        return {
          agent,
          instances: own.instances,
          share: ofAgent === 0 ? null : own.instances / ofAgent,
          trajectories: own.trajectories,
          trajectoryShare: trajectoriesOfAgent === 0 ? null : own.trajectories / trajectoriesOfAgent,
        };
      }),
    };
  });
  return { totalInstances, totalTrajectories: trajectories.length, trajectoriesWithPattern: withPattern, rows };
}
