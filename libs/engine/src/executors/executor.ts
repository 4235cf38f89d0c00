/** One attempt to start: the runner gets the token in its environment, nowhere else. */
export interface StartRequest {
  executionId: string;
  attempt: number;
  orgId: string;
  token: string;
}

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
  /** Called when an attempt's runner ends (exit code null: killed by a signal). */
  onExit: (executionId: string, attempt: number, code: number | null) => void = () => {};
}
