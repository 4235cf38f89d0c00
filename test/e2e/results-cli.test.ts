import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaignFixture, jsonl, recordFor, type CampaignFixture } from '../support/campaign-fixture.js';
import { startCliLab, type CliLab } from '../support/cli-lab.js';
import { runCli } from '../support/processes.js';

/** One campaign, one set of numbers: GraphQL, `fanout report|compare --campaign` and the offline `--input` form of its export agree. */
describe('fanout report, compare and export', () => {
  let lab: CliLab | undefined;
  let home: string;
  let env: Record<string, string>;
  let target: string[];
  let apiKey: string;
  let campaign: CampaignFixture;
  let exportFile: string;

  const cli = async (args: string[]) => {
    const res = await runCli(args, env);
    expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(0);
    return res.stdout;
  };

  beforeAll(async () => {
    lab = await startCliLab('Stats Lab', 'stats-lab');
    ({ home, env, apiKey, target } = lab);
    campaign = await createCampaignFixture(lab.db.dataSource, { orgId: lab.orgId });
    const records = campaign.units.map((unit, i) =>
      recordFor(unit, i, { resolved: unit.mode === 'concurrent' ? i % 2 === 0 : i % 3 === 0, testsPassed: i % 11, testsTotal: 10 + (i % 3) }),
    );
    const input = join(home, 'results.jsonl');
    await writeFile(input, jsonl(records));
    await cli([...target, 'import', '--campaign', campaign.campaignId, input]);
    exportFile = join(home, 'export.jsonl');
    await cli([...target, 'export', '--campaign', campaign.campaignId, '--output', exportFile]);
  });
  afterAll(() => lab?.close());

  it('report --campaign equals report --input of the exported JSONL, in every format', async () => {
    for (const format of ['json', 'table', 'csv', 'markdown']) {
      const server = await cli([...target, 'report', '--campaign', campaign.campaignId, '--format', format, '--permutations', '2000', '--seed', '4']);
      const offline = await cli(['report', '--input', exportFile, '--format', format, '--permutations', '2000', '--seed', '4']);
      expect(server, format).toBe(offline);
    }
  });

  it('compare --campaign equals compare --input of the export and the GraphQL comparison, number for number', async () => {
    const args = ['--resamples', '3000', '--seed', '9'];
    const server = JSON.parse(await cli([...target, 'compare', '--campaign', campaign.campaignId, '--format', 'json', ...args]));
    const offline = JSON.parse(await cli(['compare', '--input', exportFile, '--format', 'json', ...args]));
    // The server links pairs to executions and their campaign; the file cannot know either.
    const unlink = (pairs: any[]) => pairs.map(({ executionA, executionB, group, ...rest }) => rest);
    expect({ ...server, discordantPairs: unlink(server.discordantPairs), benefitPairs: unlink(server.benefitPairs) }).toEqual({
      ...offline,
      discordantPairs: unlink(offline.discordantPairs),
      benefitPairs: unlink(offline.benefitPairs),
    });
    expect(server.benefitPairs.every((p: any) => p.group === campaign.campaignId && p.executionA && p.executionB)).toBe(true);

    const res = await fetch(`${target[1]}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({
        query: 'query($c: ID!) { comparison(campaign: $c, resamples: 3000, seed: 9) { tests { subject b c p pAdjusted testPassDifference { mean lower upper } } benchmarks { subject benchmark taskPass { a b } testPass { a b } costUsd { a b } } } }',
        variables: { c: campaign.campaignId },
      }),
    });
    const graph = ((await res.json()) as any).data.comparison;
    expect(graph.tests).toEqual(offline.tests.map(({ subject, b, c, p, pAdjusted, testPassDifference: d }: any) => ({ subject, b, c, p, pAdjusted, testPassDifference: { mean: d.mean, lower: d.lower, upper: d.upper } })));
    expect(graph.benchmarks).toEqual(offline.benchmarks.map(({ subject, benchmark, taskPass, testPass, costUsd }: any) => ({ subject, benchmark, taskPass, testPass, costUsd })));
  });

  it('annotations import then export round-trips final labels through the CLI (an admin key imports; a member key cannot)', async () => {
    const api = target[1]!;
    const gql = async (query: string, variables: Record<string, unknown>, key = apiKey) => {
      const res = await fetch(`${api}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify({ query, variables }) });
      const body = (await res.json()) as any;
      if (body.errors) throw new Error(JSON.stringify(body.errors));
      return body.data;
    };
    const starter = (await gql('query { codebooks { builtIn versions { id } } }', {})).codebooks.find((c: any) => c.builtIn).versions[0].id;
    await gql('mutation($i: CreateAnnotationCampaignInput!) { createAnnotationCampaign(input: $i) { id } }', { i: { campaign: campaign.campaignId, codebookVersion: starter, name: 'imported' } });
    const executions = (await gql('query($f: ExecutionFilterInput) { executions(filter: $f, first: 100) { nodes { id } } }', { f: { campaignId: campaign.campaignId, mode: 'concurrent' } })).executions.nodes;
    const file = join(home, 'labels.jsonl');
    await writeFile(file, executions.map((e: any, i: number) => JSON.stringify({ executionId: e.id, labels: [{ pattern: i % 2 ? 'no_failure' : 'concurrent_writes', rationale: `line ${i}` }], rationale: 'labelled elsewhere' })).join('\n'));
    const denied = await runCli([...target, 'annotations', 'import', '--campaign', campaign.campaignId, file], env);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toMatch(/FORBIDDEN/);
    const admin = JSON.parse((await runCli(['--json', 'keys', 'create', '--org', 'stats-lab', '--name', 'admin', '--role', 'admin'], env)).stdout).key;
    const adminTarget = ['--api', api, '--api-key', admin];
    expect(await cli([...adminTarget, 'annotations', 'import', '--campaign', campaign.campaignId, file])).toContain(`imported final labels for ${executions.length} execution(s)`);
    const lines = (await cli([...target, 'annotations', 'export', '--campaign', campaign.campaignId])).trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(executions.length);
    for (const line of lines) {
      const i = executions.findIndex((e: any) => e.id === line.executionId);
      expect(line).toMatchObject({ status: 'adjudicated', mode: 'concurrent', adjudicationRationale: 'labelled elsewhere', labels: [{ pattern: i % 2 ? 'no_failure' : 'concurrent_writes', rationale: `line ${i}`, source: 'new' }] });
    }
    // Importing again is refused whole: those executions already have final labels.
    const again = await runCli([...adminTarget, 'annotations', 'import', '--campaign', campaign.campaignId, file], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already has final labels/);
  });

  it('compare prints the Table 2 layout as a table and agrees across formats; bad options exit 1 naming them', async () => {
    const table = await cli([...target, 'compare', '--campaign', campaign.campaignId, '--resamples', '200']);
    expect(table).toContain('Outcomes by benchmark (concurrent / sequential)');
    expect(table).toContain('Paired comparison: exact McNemar, Holm over 2 tests');
    expect(table).toMatch(/\d+\.\d \/ \d+\.\d/);
    const offlineTable = await cli(['compare', '--input', exportFile, '--resamples', '200']);
    // Same numbers; only the linked execution ids (long form) differ, and the table does not show them.
    expect(table).toBe(offlineTable);
    const csv = await cli(['compare', '--input', exportFile, '--format', 'csv', '--resamples', '200', '--agent-a', 'codex', '--agent-b', 'claude', '--mode', 'concurrent']);
    expect(csv).toContain('# Outcomes by benchmark (codex / claude)');
    for (const [args, message] of [
      [['compare', '--input', exportFile, '--mode-a', 'x', '--mode-b', 'x'], /--mode-a and --mode-b must differ/],
      [['compare', '--input', exportFile, '--family', 'all'], /--family expects pooled or perBenchmark/],
      [['compare', '--input', exportFile, '--agent-a', 'codex'], /needs all of --agent-a, --agent-b and --mode/],
      [['compare'], /exactly one of --campaign ID, --agent-config ID or --input/],
    ] as const) {
      const res = await runCli([...args], env);
      expect(res.code, args.join(' ')).toBe(1);
      expect(res.stderr).toMatch(message);
    }
  });
});
