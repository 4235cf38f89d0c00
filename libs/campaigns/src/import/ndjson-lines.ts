import { DomainException, ErrorCode } from '#libs/common';
import { StringDecoder } from 'node:string_decoder';

export interface NdjsonLimits {
  /** Refuse a body larger than this (PAYLOAD_TOO_LARGE). */
  maxBytes: number;
  /** Refuse a single line longer than this: without a newline, one line would be held whole in memory. */
  maxLineBytes: number;
}

/** 1 GiB per upload, 16 MiB per line (a record with hundreds of sub-agents is tens of kilobytes). */
export const DEFAULT_NDJSON_LIMITS: NdjsonLimits = { maxBytes: 1024 ** 3, maxLineBytes: 16 * 1024 ** 2 };

/**
 * The lines of an NDJSON byte stream (a request body), one at a time, with
 * `\r\n` or `\n` endings, holding at most one line in memory. Going over a
 * limit throws PAYLOAD_TOO_LARGE: what earlier batches wrote stays (the
 * import is idempotent, so the fix is to split the file and send it again).
 */
export async function* ndjsonLines(chunks: AsyncIterable<Buffer | string>, limits: NdjsonLimits = DEFAULT_NDJSON_LIMITS): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let bytes = 0;
  let pending = '';
  let pendingBytes = 0;
  let line = 0;
  for await (const chunk of chunks) {
    const size = typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    bytes += size;
    if (bytes > limits.maxBytes) {
      throw new DomainException(ErrorCode.PAYLOAD_TOO_LARGE, `the upload is larger than ${limits.maxBytes} bytes: split the file (importing is idempotent)`);
    }
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    let from = 0;
    let at = text.indexOf('\n');
    while (at !== -1) {
      const piece = pending + text.slice(from, at);
      pending = '';
      pendingBytes = 0;
      line++;
      yield piece.endsWith('\r') ? piece.slice(0, -1) : piece;
      from = at + 1;
      at = text.indexOf('\n', from);
    }
    if (from < text.length) {
      const rest = text.slice(from);
      pending += rest;
      pendingBytes += Buffer.byteLength(rest);
      if (pendingBytes > limits.maxLineBytes) {
        throw new DomainException(ErrorCode.PAYLOAD_TOO_LARGE, `line ${line + 1} is longer than ${limits.maxLineBytes} bytes`);
      }
    }
  }
  pending += decoder.end();
  if (pending !== '') yield pending.endsWith('\r') ? pending.slice(0, -1) : pending;
}

/** The lines of a string (the GraphQL `jsonl` argument), as the import service reads them. */
export async function* textLines(text: string): AsyncGenerator<string> {
  let from = 0;
  while (from <= text.length) {
    let at = text.indexOf('\n', from);
    if (at === -1) at = text.length;
    const piece = text.slice(from, at);
    // A trailing newline does not open one more (empty) line.
    if (at < text.length || piece !== '') yield piece.endsWith('\r') ? piece.slice(0, -1) : piece;
    from = at + 1;
  }
}
