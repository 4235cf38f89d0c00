import cliProgress from 'cli-progress';
import type { ImportSummary } from '#libs/campaigns';
import type { Command } from 'commander';
import { createReadStream, statSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { apiTarget, type ApiOptions } from '../api-client.js';
import { CliError, print, type OutputOptions } from '../output.js';

type Globals = ApiOptions & OutputOptions;


/** Error lines shown to people; --json has the API's full list (up to 1000). */
const SHOWN_ERRORS = 20;

function fileSize(file: string): number {
  let stat;
  try {
    stat = statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(`${file}: ${code === 'ENOENT' ? 'no such file' : `cannot read it (${code ?? (error as Error).message})`}`);
  }
  if (!stat.isFile()) throw new CliError(`${file}: not a regular file`);
  return stat.size;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/**
 * Streams the file as the request body (never read whole) and resolves with
 * the answer. The server may answer before the upload ends (an unknown
 * campaign, a refused key): then the rest of the file is not sent.
 */
function upload(url: URL, key: string, file: string, size: number, onSent: (bytes: number) => void): Promise<{ status: number; body: string }> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const body = createReadStream(file);
    let answered = false;
    const req = send(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', 'content-length': String(size), authorization: `Bearer ${key}` },
    });
    req.on('response', (res: IncomingMessage) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        body.destroy();
        resolve({ status: res.statusCode ?? 0, body: text });
      });
      res.on('error', reject);
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      // Writing after an early answer may fail (EPIPE): the answer is what counts.
      if (answered) return;
      body.destroy();
      reject(new CliError(`cannot reach the Fanout API at ${url.origin}: ${err.code ?? err.message}. Is it running (npm start)? Set --api or FANOUT_API.`));
    });
    body.on('data', (chunk) => onSent(chunk.length));
    body.on('error', (err) => {
      req.destroy();
      reject(new CliError(`${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? err.message})`));
    });
    body.pipe(req);
  });
}

function summaryOf(url: URL, answer: { status: number; body: string }): ImportSummary {
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.body);
  } catch {
    throw new CliError(`the API at ${url.origin} answered HTTP ${answer.status} without a JSON body`);
  }
  const error = (parsed as { error?: { code?: string; message?: string } }).error;
  if (answer.status !== 200 || error) {
    throw new CliError(`${error?.code ?? `HTTP ${answer.status}`}: ${error?.message ?? 'the import failed'}`);
  }
  return parsed as ImportSummary;
}

/**
 * `fanout import --campaign ID FILE.jsonl`: fills a campaign's planned
 * executions from execution records run elsewhere, streaming the file to
 * POST /v1/campaigns/:id/import. Exit code 0 when every line was imported
 * (or already was), 2 when some lines were rejected (the others are kept),
 * 1 on a fatal error.
 */
export function registerImportCommand(program: Command): void {
  const globals = () => program.opts<Globals>();
  program
    .command('import')
    .description(
      'Import execution records (JSONL, see docs/formats.md) into a campaign\'s planned executions, streaming the file to the API. Idempotent: importing the same file again changes nothing. Exit code 2 when some lines were rejected.',
    )
    .requiredOption('--campaign <id>', 'id of the campaign whose executions the records fill')
    .argument('<file>', 'JSONL file, one execution record per line')
    .action(async (file: string, opts: { campaign: string }) => {
      const options = globals();
      const size = fileSize(file);
      const { url: graphqlUrl, key } = apiTarget(options);
      if (!key) throw new CliError('no API key: pass --api-key or set FANOUT_API_KEY (create one with `fanout keys create`)');
      const url = new URL(`${graphqlUrl.replace(/\/graphql$/, '')}/v1/campaigns/${encodeURIComponent(opts.campaign)}/import`);

      const bar = process.stderr.isTTY
        ? new cliProgress.SingleBar(
            { format: 'uploading [{bar}] {percentage}% | {sentText} of {sizeText} | ETA {eta_formatted}', stream: process.stderr, hideCursor: true, clearOnComplete: true },
            cliProgress.Presets.shades_classic,
          )
        : null;
      let sent = 0;
      bar?.start(size, 0, { sentText: formatBytes(0), sizeText: formatBytes(size) });
      let answer;
      try {
        answer = await upload(url, key, file, size, (bytes) => {
          sent += bytes;
          bar?.update(sent, { sentText: formatBytes(sent) });
        });
      } finally {
        bar?.stop();
      }
      const summary = summaryOf(url, answer);

      print(
        options,
        summary,
        () =>
          `imported ${file} into campaign ${summary.campaignId}: ${summary.linesRead} line(s) read, ${summary.updated} updated, ${summary.unchanged} unchanged, ${summary.rejected} rejected`,
      );
      if (summary.rejected > 0) {
        if (!options.json) {
          for (const e of summary.errors.slice(0, SHOWN_ERRORS)) process.stderr.write(`line ${e.line}: ${e.field}: ${e.reason}\n`);
          const more = summary.errors.length - SHOWN_ERRORS;
          if (more > 0) process.stderr.write(`... ${more} more problem(s) not shown (--json lists up to 1000)\n`);
          process.stderr.write(`fanout: ${summary.rejected} line(s) rejected; the other lines were imported\n`);
        }
        process.exitCode = 2;
      }
    });
}
