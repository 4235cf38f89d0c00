import type { CodebookNode } from './entities/codebook.entity.js';

/** Fixed ids of the built-in starter codebook (seeded once, idempotently). */
export const STARTER_CODEBOOK_ID = '00000000-0000-4000-8000-00000000c0d0';
export const STARTER_CODEBOOK_VERSION_ID = '00000000-0000-4000-8000-00000000c0d1';

/** The explicit "no failure" choice: a pattern like any other, exclusive of the rest. */
export const NO_FAILURE = 'no_failure';

const node = (level: CodebookNode['level'], key: string, parentKey: string | null, label: string, definition: string, examples: string[] = []): CodebookNode => ({
  key,
  level,
  parentKey,
  label,
  definition,
  examples,
});

/**
 * The study's failure taxonomy of concurrent (multi-agent) runs, as a
 * starting point: its four categories and the patterns it names. Orgs copy
 * it into a codebook of their own and extend it.
 */
export const STARTER_NODES: CodebookNode[] = [
  node('category', 'task_orchestration', null, 'Task orchestration', 'How the work was split among sub-agents and when they were started, joined and their results used.'),
  node('subcategory', 'decomposition', 'task_orchestration', 'Decomposition', 'The split of the task into sub-tasks.'),
  node('pattern', 'load_imbalance', 'decomposition', 'Load imbalance', 'One sub-agent carries most of the work while others finish early or idle, so concurrency buys little.', ['Three sub-agents spawned; one runs 90% of the span, the others end in seconds.']),
  node('subcategory', 'timing', 'task_orchestration', 'Timing', 'When sub-agents start, are joined, and when their results are used.'),
  node('pattern', 'wrong_start_timing', 'timing', 'Wrong start timing', 'A sub-agent starts before what it depends on exists, or too late to help.'),
  node('pattern', 'wrong_join_timing', 'timing', 'Wrong join timing', 'The main agent waits for (joins) sub-agents at the wrong point: too early (blocking needlessly) or never.'),
  node('pattern', 'wrong_result_timing', 'timing', 'Wrong result timing', "A sub-agent's result is used before it is complete, or after it stopped being relevant."),
  node('category', 'execution_governance', null, 'Execution governance', 'Budgets, deadlines and when the run stops.'),
  node('subcategory', 'budget', 'execution_governance', 'Budget', 'Time and token budgets across sub-agents.'),
  node('pattern', 'fanout_budget_exhaustion', 'budget', 'Fan-out budget exhaustion', 'The fan-out spends the time (or token) budget: sub-agents are still running at the deadline.', ['Six sub-agents still active when the time budget ends; the workspace is graded half-merged.']),
  node('subcategory', 'termination', 'execution_governance', 'Termination', 'How and when the main agent ends.'),
  node('pattern', 'premature_termination', 'termination', 'Premature termination', "The main agent ends before the sub-agents' results were read or merged."),
  node('category', 'global_context', null, 'Global context', 'What sub-agents know of the whole task and of each other.'),
  node('subcategory', 'context_sharing', 'global_context', 'Context sharing', 'Information the main agent had and a sub-agent needed.'),
  node('pattern', 'missing_shared_context', 'context_sharing', 'Missing shared context', 'A sub-agent acts without a fact, constraint or decision the main agent or another sub-agent had (starter pattern: extend it).'),
  node('category', 'shared_state_merging', null, 'Shared state and merging', 'Files and deliverables that several agents touch.'),
  node('subcategory', 'shared_files', 'shared_state_merging', 'Shared files', 'Files written by more than one agent.'),
  node('pattern', 'concurrent_writes', 'shared_files', 'Concurrent writes', 'Two sub-agents write the same file in overlapping intervals, or a later write discards an earlier one that was not read.', ['Two sub-agents rewrite src/lru.js within the same minute; the second write drops the first one\'s fix.']),
  node('subcategory', 'deliverables', 'shared_state_merging', 'Deliverables', 'The final output the task asks for.'),
  node('pattern', 'deliverable_overwrite', 'deliverables', 'Deliverable overwrite', "A sub-agent's or the main agent's late write replaces a correct deliverable with a worse one."),
  node('category', NO_FAILURE, null, 'No failure', 'No failure pattern applies.'),
  node('subcategory', NO_FAILURE, NO_FAILURE, 'No failure', 'No failure pattern applies.'),
  node('pattern', NO_FAILURE, NO_FAILURE, 'No failure', 'The trajectory shows none of the patterns: an explicit choice, exclusive of every other pattern.'),
];
