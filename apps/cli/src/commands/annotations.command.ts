import { Command } from 'commander';
import { readFile, writeFile } from 'node:fs/promises';
import { graphql, type ApiOptions } from '../api-client.js';
import { CliError } from '../output.js';
import { writeOut } from './report.command.js';

/** The annotation campaign to use: the one given, or the campaign's latest. */
async function resolveAnnotationCampaign(api: ApiOptions, opts: { campaign?: string; annotationCampaign?: string }): Promise<string> {
  if (opts.annotationCampaign) return opts.annotationCampaign;
  if (!opts.campaign) throw new CliError('give --campaign ID (its latest annotation campaign) or --annotation-campaign ID');
  const data = await graphql<{ annotationCampaigns: { id: string; name: string }[] }>(api, 'query($c: ID!) { annotationCampaigns(campaign: $c) { id name } }', { c: opts.campaign });
  const latest = data.annotationCampaigns[0];
  if (!latest) throw new CliError(`campaign ${opts.campaign} has no annotation campaign yet`);
  return latest.id;
}

/** `fanout annotations export|import`: final labels as JSONL, out of and into an annotation campaign. */
export function registerAnnotationsCommand(program: Command): void {
  const annotations = program.command('annotations').description('Failure annotations: export final labels, import labels done elsewhere.');
  annotations
    .command('export')
    .description('Write the final labels (agreed or adjudicated) with their rationale as JSONL, one execution per line.')
    .option('--campaign <id>', 'the run campaign (its latest annotation campaign)')
    .option('--annotation-campaign <id>', 'a specific annotation campaign')
    .option('--output <file>', 'write to this file instead of standard output')
    .action(async (opts: { campaign?: string; annotationCampaign?: string; output?: string }, command: Command) => {
      const api = command.optsWithGlobals<ApiOptions>();
      const id = await resolveAnnotationCampaign(api, opts);
      const data = await graphql<{ annotationCampaign: { finalLabels: unknown[] } }>(api, 'query($c: ID!) { annotationCampaign(id: $c) { finalLabels } }', { c: id });
      const text = data.annotationCampaign.finalLabels.map((line) => JSON.stringify(line)).join('\n') + (data.annotationCampaign.finalLabels.length ? '\n' : '');
      if (opts.output) await writeFile(opts.output, text);
      else await writeOut(text);
      process.stderr.write(`fanout: ${data.annotationCampaign.finalLabels.length} execution(s) with final labels\n`);
    });
  annotations
    .command('import')
    .description('Record final labels done elsewhere: JSONL lines {"executionId": ID, "labels": [{"pattern", "rationale"}], "rationale"?} (the export format works). All or nothing.')
    .argument('<file>', 'JSONL file')
    .option('--campaign <id>', 'the run campaign (its latest annotation campaign)')
    .option('--annotation-campaign <id>', 'a specific annotation campaign')
    .action(async (file: string, opts: { campaign?: string; annotationCampaign?: string }, command: Command) => {
      const api = command.optsWithGlobals<ApiOptions>();
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (err) {
        throw new CliError(`${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
      }
      const lines = text.split('\n').map((line, i) => ({ line, n: i + 1 })).filter(({ line }) => line.trim() !== '');
      const parsed = lines.map(({ line, n }) => {
        let value: { executionId?: unknown; labels?: unknown; rationale?: unknown; adjudicationRationale?: unknown };
        try {
          value = JSON.parse(line);
        } catch {
          throw new CliError(`${file}:${n}: not valid JSON`);
        }
        if (typeof value.executionId !== 'string') throw new CliError(`${file}:${n}: executionId: expected the id of an execution`);
        if (!Array.isArray(value.labels)) throw new CliError(`${file}:${n}: labels: expected a list of {pattern, rationale}`);
        const rationale = value.rationale ?? value.adjudicationRationale;
        return {
          execution: value.executionId,
          labels: value.labels.map((l: { pattern?: unknown; rationale?: unknown }) => ({ pattern: l.pattern, rationale: l.rationale })),
          rationale: typeof rationale === 'string' ? rationale : null,
        };
      });
      const id = await resolveAnnotationCampaign(api, opts);
      const data = await graphql<{ importAnnotations: { imported: number } }>(
        api,
        'mutation($c: ID!, $l: [ImportedLabelsInput!]!) { importAnnotations(annotationCampaign: $c, lines: $l) { imported } }',
        { c: id, l: parsed },
      );
      await writeOut(`imported final labels for ${data.importAnnotations.imported} execution(s)\n`);
    });
}
