import type { EventBatchResult } from '#libs/contracts';
import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { EventUploader, type UploaderOptions } from './event-uploader.js';
import { HttpStatusError } from './runner-api.client.js';
import { RunnerError, TransientError } from './runner.error.js';

const logger = pino({ level: 'silent' });
const OPTIONS: UploaderOptions = { pollMs: 5, maxBatchEvents: 500, maxBatchBytes: 1024, retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 } };
const ok = (body: string): EventBatchResult => ({ accepted: body.trim().split('\n').length, duplicates: 0, rejected: [] });

function eventsFile(content = ''): string {
  const path = join(mkdtempSync(join(tmpdir(), 'fanout-uploader-')), 'events.ndjson');
  writeFileSync(path, content);
  return path;
}

/** A fake POST events that records bodies and answers with `answer` (ok by default). */
function fakeApi(answer: (body: string, call: number) => EventBatchResult | Error = ok) {
  const bodies: string[] = [];
  let notify: (() => void) | null = null;
  const send = async (body: string) => {
    bodies.push(body);
    notify?.();
    const result = answer(body, bodies.length);
    if (result instanceof Error) throw result;
    return result;
  };
  const nextCall = () => new Promise<void>((resolve) => (notify = resolve));
  return { bodies, send, nextCall };
}

describe('EventUploader', () => {
  it('uploads complete lines only while tailing, and the last partial line at the final flush', async () => {
    const file = eventsFile('{"id":"a"}\r\n\n{"id":"b"}\n{"id":');
    const api = fakeApi();
    const uploader = new EventUploader(file, api.send, logger, OPTIONS);
    const first = api.nextCall();
    uploader.start();
    await first;
    expect(api.bodies).toEqual(['{"id":"a"}\n{"id":"b"}\n']);
    appendFileSync(file, '"c"}\n{"id":"d"}');
    const stats = await uploader.flush();
    expect(api.bodies.slice(1).join('')).toBe('{"id":"c"}\n{"id":"d"}\n');
    expect(stats).toMatchObject({ accepted: 4, rejected: 0 });
  });

  it('cuts batches at the event count and at the byte limit', async () => {
    const line = (i: number) => JSON.stringify({ id: `e${i}`, pad: 'x'.repeat(280) });
    const file = eventsFile(Array.from({ length: 8 }, (_, i) => `${line(i)}\n`).join(''));
    const byCount = fakeApi();
    await new EventUploader(file, byCount.send, logger, { ...OPTIONS, maxBatchEvents: 3, maxBatchBytes: 1e6 }).flush();
    expect(byCount.bodies.map((b) => b.trim().split('\n').length)).toEqual([3, 3, 2]);
    const byBytes = fakeApi();
    await new EventUploader(file, byBytes.send, logger, OPTIONS).flush();
    expect(byBytes.bodies.map((b) => b.trim().split('\n').length)).toEqual([3, 3, 2]);
    expect(Math.max(...byBytes.bodies.map((b) => Buffer.byteLength(b)))).toBeLessThanOrEqual(1024);
  });

  it('re-sends the same events after a transient failure', async () => {
    const file = eventsFile('{"id":"a"}\n{"id":"b"}\n');
    const api = fakeApi((body, call) => (call === 1 ? new TransientError('503') : ok(body)));
    await new EventUploader(file, api.send, logger, OPTIONS).flush();
    expect(api.bodies).toHaveLength(2);
    expect(api.bodies[1]).toBe(api.bodies[0]);
  });

  it('fails for good on a refused token, or when retries run out', async () => {
    const refused = new EventUploader(eventsFile('{"id":"a"}\n'), fakeApi(() => new HttpStatusError(403, 'POST events answered 403')).send, logger, OPTIONS);
    await expect(refused.flush()).rejects.toThrow(RunnerError);
    await expect(refused.failed).rejects.toThrow(/403/);
    const down = fakeApi(() => new TransientError('503'));
    await expect(new EventUploader(eventsFile('{"id":"a"}\n'), down.send, logger, OPTIONS).flush()).rejects.toThrow(/uploading events failed: 503/);
    expect(down.bodies).toHaveLength(3);
  });

  it('halves a batch the API finds too large, and drops a line no batch can carry', async () => {
    const file = eventsFile(`{"id":"a"}\n{"id":"b"}\n{"id":"c"}\n{"id":"big","pad":"${'x'.repeat(2000)}"}\n`);
    const api = fakeApi((body) => (body.trim().split('\n').length > 1 ? new HttpStatusError(413, 'too large') : ok(body)));
    const stats = await new EventUploader(file, api.send, logger, OPTIONS).flush();
    expect(stats).toMatchObject({ accepted: 3, rejected: 1 });
    expect(api.bodies.filter((b) => b.trim().split('\n').length === 1)).toEqual(['{"id":"a"}\n', '{"id":"b"}\n', '{"id":"c"}\n']);
  });
});
