import type { ExecutionSpec } from '#libs/contracts';
import { closeSync, openSync } from 'node:fs';
import { ProcessGroup, type GroupExit } from './process-group.js';
import type { WorkPaths } from './workspace.js';

/** The variables the agent inherits from the runner; everything else comes from the spec. */
const INHERITED = ['PATH', 'HOME', 'LANG'] as const;

/** A spec command as file + argv: a string runs via `sh -c` with `args` as "$@", a list runs as is. */
export function commandLine(command: string | string[], args: readonly string[] = []): { file: string; argv: string[] } {
  if (typeof command === 'string') {
    // The args become the script's positional parameters: no quoting to get wrong.
    return { file: 'sh', argv: ['-c', args.length ? `${command} "$@"` : command, 'sh', ...args] };
  }
  const [file, ...rest] = command;
  if (!file) throw new Error('empty command');
  return { file, argv: [...rest, ...args] };
}

/** PATH/HOME/LANG of the runner, then the spec's env (config, mode, secrets), then the protocol's FANOUT_* variables. */
export function agentEnv(spec: ExecutionSpec, paths: WorkPaths, deadline: Date, runnerEnv: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return {
    ...inheritedEnv(runnerEnv),
    ...spec.agent.env,
    FANOUT_EVENTS_FILE: paths.eventsFile,
    FANOUT_WORKSPACE: paths.workspace,
    FANOUT_TASK_INSTRUCTION: spec.task.instruction,
    FANOUT_MODE: spec.mode,
    FANOUT_SEED: String(spec.seed),
    FANOUT_DEADLINE: deadline.toISOString(),
    FANOUT_EXECUTION_ID: spec.executionId,
  };
}

export function inheritedEnv(runnerEnv: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED) if (runnerEnv[name] !== undefined) env[name] = runnerEnv[name]!;
  return env;
}

/** How the agent's main process ended, before the runner killed what was left of its group. */
export type AgentExit =
  | { kind: 'exited'; exitCode: number }
  | { kind: 'crashed'; signal: NodeJS.Signals };

/**
 * Starts the agent in the workspace, in a process group of its own, its
 * output appended to the agent log. A command that cannot be started at all
 * is an agent failure like a shell's: exit code 127 (not found) or 126 (not
 * executable), never a runner failure.
 */
export async function startAgent(spec: ExecutionSpec, paths: WorkPaths, deadline: Date): Promise<{ group: ProcessGroup | null; exit: Promise<AgentExit> }> {
  const { file, argv } = commandLine(spec.agent.command, spec.agent.args);
  const log = openSync(paths.agentLog, 'a');
  try {
    const group = await ProcessGroup.start(file, argv, { cwd: paths.workspace, env: agentEnv(spec, paths, deadline), stdio: ['ignore', log, log] });
    return { group, exit: group.exited.then(toAgentExit) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES') return { group: null, exit: Promise.resolve({ kind: 'exited', exitCode: code === 'ENOENT' ? 127 : 126 }) };
    throw err;
  } finally {
    closeSync(log);
  }
}

function toAgentExit(exit: GroupExit): AgentExit {
  if (exit.signal) return { kind: 'crashed', signal: exit.signal };
  return { kind: 'exited', exitCode: exit.code ?? 0 };
}
