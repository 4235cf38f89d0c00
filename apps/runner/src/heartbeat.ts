import type { Heartbeat } from '#libs/contracts';
import type { Logger } from 'pino';

export type Phase = Heartbeat['phase'];

/**
 * Tells the API the runner is alive, every `intervalMs` and at each phase
 * change, and listens for the answer that the execution was cancelled. A
 * failed heartbeat is logged and followed by the next one: missing a few is
 * what the API's lost-heartbeat detection is for.
 */
export class Heartbeater {
  private phase: Phase = 'setup';
  private timer: NodeJS.Timeout | undefined;
  private inFlight = false;
  private stopped = false;
  private cancelled = false;

  constructor(
    private readonly send: (heartbeat: Heartbeat) => Promise<{ cancel: boolean }>,
    private readonly attempt: number,
    private readonly intervalMs: number,
    private readonly logger: Logger,
    private readonly onCancel: () => void,
  ) {}

  start(phase: Phase): void {
    this.phase = phase;
    void this.beat();
    this.timer = setInterval(() => void this.beat(), this.intervalMs);
  }

  setPhase(phase: Phase): void {
    if (phase === this.phase) return;
    this.phase = phase;
    void this.beat();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  private async beat(): Promise<void> {
    if (this.inFlight || this.stopped) return;
    this.inFlight = true;
    try {
      const answer = await this.send({ attempt: this.attempt, phase: this.phase });
      if (answer.cancel && !this.cancelled && !this.stopped) {
        this.cancelled = true;
        this.logger.info({ phase: this.phase }, 'the execution was cancelled');
        this.onCancel();
      }
    } catch (err) {
      this.logger.warn({ err: (err as Error).message, phase: this.phase }, 'heartbeat failed');
    } finally {
      this.inFlight = false;
    }
  }
}
