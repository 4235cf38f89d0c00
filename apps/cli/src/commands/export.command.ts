import type { Command } from 'commander';
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { apiTarget, type ApiOptions } from '../api-client.js';
import { CliError } from '../output.js';

/** `fanout export --campaign ID`: the campaign's execution records as JSONL (stdout or --output). */
export function registerExportCommand(program: Command): void {
  program
    .command('export')
    .description('Write a campaign\'s execution records as JSONL (the format `fanout report --input` and `fanout import` read).')
    .requiredOption('--campaign <id>', 'campaign id (yours, or a public one)')
    .option('--output <file>', 'write to this file instead of standard output')
    .action(async (opts: { campaign: string; output?: string }, command: Command) => {
      const { url, key } = apiTarget(command.optsWithGlobals<ApiOptions>());
      const target = url.replace(/\/graphql$/, `/v1/campaigns/${encodeURIComponent(opts.campaign)}/export`);
      let res: Response;
      try {
        res = await fetch(target, { headers: key ? { authorization: `Bearer ${key}` } : {} });
      } catch (err) {
        throw new CliError(`cannot reach the Fanout API at ${target}: ${(err as Error).cause ?? (err as Error).message}`);
      }
      if (!res.ok || !res.body) {
        const body = (await res.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
        throw new CliError(body?.error ? `${body.error.code}: ${body.error.message}` : `export failed: HTTP ${res.status}`);
      }
      await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), opts.output ? createWriteStream(opts.output) : process.stdout);
    });
}
