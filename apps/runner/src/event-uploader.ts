import { MAX_EVENT_BATCH_BYTES, type EventBatchResult } from '#libs/contracts';
import { open, type FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { HttpStatusError } from './runner-api.client.js';
import { backoffMs, type RetryPolicy } from './retry.util.js';
import { RunnerError, TransientError } from './runner.error.js';

export interface UploaderOptions {
  pollMs: number;
  maxBatchEvents: number;
  maxBatchBytes: number;
  retry: RetryPolicy;
}

export const DEFAULT_UPLOADER_OPTIONS: Omit<UploaderOptions, 'retry'> = { pollMs: 200, maxBatchEvents: 500, maxBatchBytes: MAX_EVENT_BATCH_BYTES };

interface Line {
  /** 1-based line number in the events file, for logs people can look up. */
  lineNo: number;
  text: string;
  bytes: number;
}

export interface UploadStats {
  batches: number;
  accepted: number;
  duplicates: number;
  rejected: number;
}

/**
 * Tails the agent's events file and uploads its lines as NDJSON batches, in
 * order, one batch in flight. A batch leaves the queue only once the API
 * accepted it; a failed one is re-sent with the same events (their ids make
 * that idempotent). A partial last line waits for the rest of it, except at
 * the final flush, when the agent is gone and it is all there will be.
 */
export class EventUploader {
  readonly stats: UploadStats = { batches: 0, accepted: 0, duplicates: 0, rejected: 0 };
  /** Rejects when uploading failed for good (the API is gone, or refuses the token). */
  readonly failed: Promise<never>;
  private fail!: (err: Error) => void;
  private error: Error | null = null;
  private file: FileHandle | null = null;
  private offset = 0;
  private buffer: Buffer | undefined;
  private readonly decoder = new StringDecoder('utf8');
  private partial = '';
  private lineNo = 0;
  private readonly queue: Line[] = [];
  private work: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly path: string,
    private readonly send: (ndjson: string) => Promise<EventBatchResult>,
    private readonly logger: Logger,
    private readonly options: UploaderOptions,
  ) {
    this.failed = new Promise<never>((_, reject) => (this.fail = reject));
    this.failed.catch(() => undefined);
  }

  start(): void {
    this.schedule();
  }

  /** Stops tailing, then reads and uploads everything that is left; rejects when that cannot be done. */
  async flush(): Promise<UploadStats> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.enqueue(true);
    await this.file?.close();
    this.file = null;
    return this.stats;
  }

  /** Stops without uploading what is left (the runner is being stopped). */
  async abandon(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.work.catch(() => undefined);
    await this.file?.close().catch(() => undefined);
    this.file = null;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.enqueue(false).then(
        () => this.schedule(),
        () => undefined,
      );
    }, this.options.pollMs);
  }

  private enqueue(final: boolean): Promise<void> {
    this.work = this.work.then(() => this.pump(final));
    return this.work;
  }

  private async pump(final: boolean): Promise<void> {
    if (this.error) throw this.error;
    try {
      await this.read(final);
      while (this.queue.length > 0) {
        const batch = this.nextBatch();
        await this.upload(batch);
        this.queue.splice(0, batch.length);
      }
    } catch (err) {
      this.error = err instanceof RunnerError ? err : new RunnerError(`uploading events failed: ${(err as Error).message}`, { cause: err });
      this.fail(this.error);
      throw this.error;
    }
  }

  private async read(final: boolean): Promise<void> {
    this.file ??= await open(this.path, 'r');
    const buffer = (this.buffer ??= Buffer.alloc(1024 * 1024));
    for (;;) {
      const { bytesRead } = await this.file.read(buffer, 0, buffer.length, this.offset);
      if (bytesRead === 0) break;
      this.offset += bytesRead;
      const pieces = (this.partial + this.decoder.write(buffer.subarray(0, bytesRead))).split('\n');
      this.partial = pieces.pop()!;
      for (const piece of pieces) this.addLine(piece);
    }
    if (final) {
      this.addLine(this.partial + this.decoder.end());
      this.partial = '';
    }
  }

  private addLine(piece: string): void {
    this.lineNo++;
    const text = piece.endsWith('\r') ? piece.slice(0, -1) : piece;
    if (text.trim() === '') return;
    const bytes = Buffer.byteLength(text) + 1;
    if (bytes > this.options.maxBatchBytes) {
      // No batch can carry it: the API would answer 413 forever.
      this.stats.rejected++;
      this.logger.error({ line: this.lineNo, bytes, limit: this.options.maxBatchBytes }, 'event rejected: larger than a whole batch may be');
      return;
    }
    this.queue.push({ lineNo: this.lineNo, text, bytes });
  }

  private nextBatch(): Line[] {
    let bytes = 0;
    let n = 0;
    while (n < this.queue.length && n < this.options.maxBatchEvents && bytes + this.queue[n]!.bytes <= this.options.maxBatchBytes) {
      bytes += this.queue[n]!.bytes;
      n++;
    }
    return this.queue.slice(0, n);
  }

  private async upload(batch: Line[]): Promise<void> {
    const body = batch.map((l) => l.text).join('\n') + '\n';
    for (let tried = 1; ; tried++) {
      try {
        this.record(batch, await this.send(body));
        return;
      } catch (err) {
        if (err instanceof HttpStatusError && err.status === 413 && batch.length > 1) {
          // The API's limit is lower than ours: halve until it fits.
          const half = Math.ceil(batch.length / 2);
          await this.upload(batch.slice(0, half));
          await this.upload(batch.slice(half));
          return;
        }
        if (err instanceof HttpStatusError && err.status === 413) {
          this.record(batch, { accepted: 0, duplicates: 0, rejected: [{ index: 0, reason: 'larger than the API accepts (413)' }] });
          return;
        }
        if (!(err instanceof TransientError) || tried >= this.options.retry.attempts) throw err;
        const delay = backoffMs(this.options.retry, tried);
        this.logger.warn({ err: err.message, events: batch.length, firstLine: batch[0]!.lineNo, tried, retryInMs: delay }, 'events batch failed; re-sending the same events');
        await sleep(delay);
      }
    }
  }

  private record(batch: Line[], result: EventBatchResult): void {
    this.stats.batches++;
    this.stats.accepted += result.accepted;
    this.stats.duplicates += result.duplicates;
    this.stats.rejected += result.rejected.length;
    for (const { index, reason } of result.rejected) {
      const line = batch[index];
      this.logger.warn({ index, line: line?.lineNo, eventId: line ? eventId(line.text) : undefined, reason }, 'event rejected by the API');
    }
    this.logger.debug({ events: batch.length, accepted: result.accepted, duplicates: result.duplicates, rejected: result.rejected.length }, 'events batch uploaded');
  }
}

function eventId(text: string): string | undefined {
  try {
    const id = (JSON.parse(text) as { id?: unknown }).id;
    return typeof id === 'string' ? id.slice(0, 128) : undefined;
  } catch {
    return undefined;
  }
}
