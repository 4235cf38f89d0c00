import type { Command } from 'commander';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { graphql, type ApiOptions } from '../api-client.js';
import { CliError, print, table, type OutputOptions } from '../output.js';

type Globals = ApiOptions & OutputOptions;

export async function readText(file: string, option = 'FILE'): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new CliError(`${option}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

export function registerCatalogCommands(program: Command): void {
  const globals = () => program.opts<Globals>();

  const benchmark = program.command('benchmark').description('Benchmarks: register manifests, list them.');
  benchmark
    .command('register <file>')
    .description('Register a benchmark manifest (YAML). The same manifest again changes nothing; changed content needs a new version.')
    .action(async (file: string) => {
      const data = await graphql<{ registerBenchmark: { created: boolean; benchmark: { id: string; key: string; version: string; taskCount: number; visibility: string; groupSizes: { difficulty: string; count: number }[] } } }>(
        globals(),
        `mutation($input: ManifestInput!, $dir: String) { registerBenchmark(input: $input, sourceDir: $dir) { created benchmark { id key version taskCount visibility groupSizes { difficulty count } } } }`,
        { input: { yaml: await readText(file) }, dir: resolve(dirname(file)) },
      );
      const { benchmark: b, created } = data.registerBenchmark;
      print(globals(), data.registerBenchmark, () =>
        [
          `${created ? 'registered' : 'already registered (no change)'}: ${b.key} ${b.version} (${b.visibility}), ${b.taskCount} tasks, id ${b.id}`,
          table(b.groupSizes.map((g) => ({ difficulty: g.difficulty.toLowerCase(), tasks: g.count })), ['difficulty', 'tasks']),
        ].join('\n'),
      );
    });
  benchmark
    .command('list')
    .description('Benchmark versions of your organization, and public ones.')
    .action(async () => {
      const data = await graphql<{ benchmarks: { nodes: Record<string, unknown>[] } }>(globals(), '{ benchmarks(first: 100) { nodes { id key version name visibility taskCount ownedByViewer } } }');
      print(globals(), data.benchmarks.nodes, () => table(data.benchmarks.nodes, ['key', 'version', 'name', 'visibility', 'taskCount', 'ownedByViewer', 'id']));
    });

  const agent = program.command('agent').description('Agent configs: register manifests, list them.');
  agent
    .command('register <file>')
    .description('Register an agent config manifest (YAML) as a new version (the same content again is a no-op).')
    .action(async (file: string) => {
      const data = await graphql<{ createAgentConfig: { created: boolean; missingSecrets: string[]; agentConfig: { id: string; name: string; version: number; model: string; modes: { name: string }[] } } }>(
        globals(),
        `mutation($input: ManifestInput!) { createAgentConfig(input: $input) { created missingSecrets agentConfig { id name version model modes { name } } } }`,
        { input: { yaml: await readText(file) } },
      );
      const { agentConfig: a, created, missingSecrets } = data.createAgentConfig;
      print(globals(), data.createAgentConfig, () =>
        [
          `${created ? 'registered' : 'already registered (no change)'}: ${a.name} v${a.version} (${a.model}), modes ${a.modes.map((m) => m.name).join(', ')}, id ${a.id}`,
          ...(missingSecrets.length ? [`warning: secrets not set yet: ${missingSecrets.join(', ')} (fanout secrets set NAME)`] : []),
        ].join('\n'),
      );
    });
  agent
    .command('list')
    .description('Agent configs of your organization (latest versions).')
    .action(async () => {
      const data = await graphql<{ agentConfigs: { nodes: Record<string, unknown>[] } }>(globals(), '{ agentConfigs(first: 100) { nodes { id name version scaffold model } } }');
      print(globals(), data.agentConfigs.nodes, () => table(data.agentConfigs.nodes, ['name', 'version', 'scaffold', 'model', 'id']));
    });

  const secrets = program.command('secrets').description('Org secrets agents need (provider API keys); values are never shown.');
  secrets
    .command('set <name>')
    .description('Set a secret; the value comes from standard input (or FANOUT_SECRET_VALUE).')
    .action(async (name: string) => {
      const value = process.env.FANOUT_SECRET_VALUE ?? (await readStdin());
      if (!value) throw new CliError('value: expected the secret on standard input (echo -n "$KEY" | fanout secrets set NAME)');
      const data = await graphql<{ setSecret: { name: string; updatedAt: string } }>(globals(), 'mutation($name: String!, $value: String!) { setSecret(name: $name, value: $value) { name updatedAt } }', { name, value });
      print(globals(), data.setSecret, () => `set ${data.setSecret.name}`);
    });
  secrets
    .command('list')
    .description('Names of the secrets set.')
    .action(async () => {
      const data = await graphql<{ secrets: Record<string, unknown>[] }>(globals(), '{ secrets { name updatedAt } }');
      print(globals(), data.secrets, () => table(data.secrets, ['name', 'updatedAt']));
    });
}
