import { AccountService, ApiKeyService, OrganizationService, Role, isRole, normaliseEmail, UserEntity, OrganizationEntity } from '#libs/identity';
import type { Command } from 'commander';
import { createInterface } from 'node:readline/promises';
import { graphql, hasApiCredential, type ApiOptions } from '../api-client.js';
import { withLocalServices } from '../local-context.js';
import { CliError, print, table, type OutputOptions } from '../output.js';
import { DataSource } from 'typeorm';

type Globals = ApiOptions & OutputOptions;

function parseRole(value: string): Role {
  const role = value.toLowerCase();
  if (!isRole(role)) throw new CliError(`--role: expected one of owner, admin, member, adjudicator, annotator, viewer; got "${value}"`);
  return role;
}

async function readPassword(): Promise<string> {
  if (process.env.FANOUT_PASSWORD) return process.env.FANOUT_PASSWORD;
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: process.stdin.isTTY });
  try {
    const answer = await rl.question(process.stdin.isTTY ? 'Password (10+ characters): ' : '');
    return answer.trim();
  } finally {
    rl.close();
  }
}

export function registerIdentityCommands(program: Command): void {
  const globals = () => program.opts<Globals>();

  program
    .command('whoami')
    .description('Show who the API key is: organization and role (uses the API).')
    .action(async () => {
      const data = await graphql<{ me: { kind: string; role: string; organization: { slug: string; name: string; id: string } } }>(
        globals(),
        '{ me { kind role organization { id slug name } } }',
      );
      print(globals(), data.me, () => `${data.me.kind.toLowerCase()} in ${data.me.organization.slug} (${data.me.organization.name}) as ${data.me.role.toLowerCase()}`);
    });

  const user = program.command('user').description('Users of the local database (operator commands).');
  user
    .command('create')
    .description('Create a user on the local database. The password comes from FANOUT_PASSWORD, standard input, or a prompt.')
    .requiredOption('--email <email>', 'login email')
    .option('--name <name>', 'display name', '')
    .option('--platform-admin', 'the user runs the platform: may set the default price book (only settable here, never through the API)')
    .action(async (opts: { email: string; name: string; platformAdmin?: boolean }) => {
      const email = normaliseEmail(opts.email);
      if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new CliError(`--email: expected an email address, got "${opts.email}"`);
      const password = await readPassword();
      if (password.length < 10) throw new CliError('password: expected at least 10 characters');
      const platformAdmin = opts.platformAdmin === true;
      const created = await withLocalServices(async (app) => {
        const user = await app.get(AccountService).createUserWithPassword(email, opts.name || email.split('@')[0]!, password);
        if (platformAdmin) await app.get(DataSource).getRepository(UserEntity).update({ id: user.id }, { platformAdmin: true });
        return user;
      });
      print(globals(), { id: created.id, email: created.email, platformAdmin }, () => `created user ${created.email} (${created.id})${platformAdmin ? ', platform admin' : ''}`);
    });

  const org = program.command('org').description('Organizations (tenants).');
  org
    .command('create')
    .description('Create an organization on the local database, owned by an existing user.')
    .requiredOption('--name <name>', 'organization name')
    .requiredOption('--owner <email>', 'email of the user who will own it')
    .option('--slug <slug>', 'URL name (derived from the name when omitted)')
    .action(async (opts: { name: string; owner: string; slug?: string }) => {
      const created = await withLocalServices(async (app) => {
        const owner = await app.get(DataSource).getRepository(UserEntity).findOneBy({ email: normaliseEmail(opts.owner) });
        if (!owner) throw new CliError(`--owner: no user with email ${opts.owner}; create one first with \`fanout user create\``);
        return app.get(OrganizationService).createForUser(owner.id, opts.name, opts.slug ?? null);
      });
      print(globals(), created, () => `created organization ${created.slug} (${created.id})`);
    });

  const keys = program.command('keys').description('API keys.');
  keys
    .command('create')
    .description('Create an API key. With --api-key, through the API for that key\'s org; otherwise on the local database for --org.')
    .requiredOption('--name <name>', 'what the key is for')
    .option('--org <slug>', 'organization slug (local database only)')
    .option('--role <role>', 'owner|admin|member|adjudicator|annotator|viewer', 'member')
    .option('--expires <iso-date>', 'expiry time (ISO 8601)')
    .action(async (opts: { name: string; org?: string; role: string; expires?: string }) => {
      const role = parseRole(opts.role);
      const expiresAt = opts.expires ? new Date(opts.expires) : null;
      if (expiresAt && Number.isNaN(expiresAt.getTime())) throw new CliError(`--expires: expected an ISO 8601 time, got "${opts.expires}"`);
      let result: { key: string; id: string; prefix: string; role: string; org: string };
      if (hasApiCredential(globals())) {
        const data = await graphql<{ createApiKey: { key: string; apiKey: { id: string; prefix: string; role: string } } }>(
          globals(),
          'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { key apiKey { id prefix role } } }',
          { input: { name: opts.name, role: role.toUpperCase(), expiresAt: expiresAt?.toISOString() ?? null } },
        );
        result = { key: data.createApiKey.key, ...data.createApiKey.apiKey, org: '(the calling key\'s)' };
      } else {
        if (!opts.org) throw new CliError('--org: required on the local database (or pass --api-key to create through the API)');
        result = await withLocalServices(async (app) => {
          const found = await app.get(DataSource).getRepository(OrganizationEntity).findOneBy({ slug: opts.org });
          if (!found) throw new CliError(`--org: no organization with slug "${opts.org}"`);
          const { apiKey, token } = await app.get(ApiKeyService).createForOrg(found.id, { name: opts.name, role, expiresAt });
          return { key: token, id: apiKey.id, prefix: apiKey.prefix, role: apiKey.role, org: found.slug };
        });
      }
      print(globals(), result, () => `${result.key}\n\nAPI key ${result.prefix} (${result.role.toLowerCase()}) for ${result.org}. Store it now: it is not shown again.`);
    });

  keys
    .command('list')
    .description('List the API keys of the key\'s organization (uses the API).')
    .action(async () => {
      const data = await graphql<{ apiKeys: { nodes: Record<string, unknown>[] } }>(
        globals(),
        '{ apiKeys(first: 100) { nodes { id name prefix role createdAt lastUsedAt revokedAt } } }',
      );
      print(globals(), data.apiKeys.nodes, () => table(data.apiKeys.nodes, ['id', 'name', 'prefix', 'role', 'lastUsedAt', 'revokedAt']));
    });

  keys
    .command('revoke <id>')
    .description('Revoke an API key by id (uses the API).')
    .action(async (id: string) => {
      const data = await graphql<{ revokeApiKey: { id: string; revokedAt: string } }>(
        globals(),
        'mutation($id: ID!) { revokeApiKey(id: $id) { id revokedAt } }',
        { id },
      );
      print(globals(), data.revokeApiKey, () => `revoked ${data.revokeApiKey.id} at ${data.revokeApiKey.revokedAt}`);
    });

  program
    .command('orgs')
    .description('List the organizations the credential can see (uses the API).')
    .action(async () => {
      const data = await graphql<{ organizations: { nodes: Record<string, unknown>[] } }>(
        globals(),
        '{ organizations(first: 100) { nodes { id slug name viewerRole } } }',
      );
      print(globals(), data.organizations.nodes, () => table(data.organizations.nodes, ['id', 'slug', 'name', 'viewerRole']));
    });
}
