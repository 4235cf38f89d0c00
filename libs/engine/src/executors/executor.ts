/** One attempt to start: the runner gets the token in its environment, nowhere else. */
export interface StartRequest {
  executionId: string;
  attempt: number;
  orgId: string;
  token: string;
}

/**
 * Why an attempt ended, when the executor knows more than the runner's exit
 * code (a cluster sees the node, the kubelet and the Job controller):
 * - `infrastructure`: the runner was taken away under it (eviction,
 *   preemption, node loss, image pull failure, never scheduled, its Job
 *   deleted). Retried like any infrastructure failure; `reason` is recorded.
 * - `agent`: the agent took the runner down with it before a grade could be
 *   posted (out of memory, the Job's deadline). A result, never retried:
 *   recorded as an ungraded agent failure (`agentEnd` crashed or timeout).
 * Without a cause, the exit code is the runner's own report (runner.md):
 * 0 posted a grade (or was cancelled), anything else is retried.
 * A grade already recorded always wins: every consequence is conditional
 * on the attempt still being live.
 */
export type ExitCause =
  | { kind: 'infrastructure'; reason: string }
  | { kind: 'agent'; agentEnd: 'crashed' | 'timeout'; agentExitCode: number | null; reason: string };

/**
 * Where runners run: a local process group, or a Kubernetes Job. Every
 * method is keyed by (execution, attempt) and idempotent, so a scheduler that
 * crashed mid-way can call it again.
 */
export abstract class Executor {
  /** Runs at once this executor takes (the scheduler never dispatches more). */
  abstract readonly capacity: number;
  /**
   * Whether runners die with the platform: local processes do (Ctrl-C must
   * stop everything), cluster Jobs do not (they outlive a scheduler restart).
   */
  readonly stopOnShutdown: boolean = false;
  /** Starts the runner; starting an attempt that already runs is a no-op. */
  abstract start(request: StartRequest): Promise<void>;
  /** Whether the attempt's runner is alive (or its Job is active). */
  abstract isRunning(executionId: string, attempt: number): Promise<boolean>;
  /** Stops the attempt's runner and everything it started. */
  abstract stop(executionId: string, attempt: number): Promise<void>;
  /**
   * Called when an attempt's runner ends (exit code null: killed by a signal,
   * or no exit code known), with the cause when the executor knows it. May be
   * called more than once for one attempt (after a restart, a resync): the
   * scheduler's handling is idempotent.
   */
  onExit: (executionId: string, attempt: number, code: number | null, cause?: ExitCause) => void = () => {};
}
