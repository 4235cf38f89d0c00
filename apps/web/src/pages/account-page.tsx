import { useState, type FormEvent } from 'react';
import { GraphqlError, graphql } from '../api/graphql-client';
import { useSession } from '../api/session';
import { useGraphql } from '../api/use-graphql';
import { Async, Empty, Loading } from '../components/states';
import { dateTime, int, usd } from '../format';

const ORGS = 'query { organizations(first: 100) { nodes { id slug name personal viewerRole } } }';
const KEYS = 'query { apiKeys(first: 100) { nodes { id name prefix role createdAt lastUsedAt revokedAt expiresAt } } }';
const USAGE = 'query { total: usage(groupBy: []) { calls executions costUsd unpricedCalls tokens { total } } byCampaign: usage(groupBy: [CAMPAIGN]) { campaignId campaignName calls executions costUsd resolved costPerResolvedUsd tokens { total } } }';
const ROLES = ['VIEWER', 'ANNOTATOR', 'ADJUDICATOR', 'MEMBER', 'ADMIN', 'OWNER'];

const message = (e: unknown) => (e instanceof GraphqlError ? `${e.field ? `${e.field}: ` : ''}${e.message}` : String(e));

export function AccountPage() {
  const { viewer } = useSession();
  if (!viewer) return null;
  const admin = viewer.role === 'ADMIN' || viewer.role === 'OWNER';
  return (
    <>
      <h1>Account</h1>
      <p className="lede">
        {viewer.user?.name} ({viewer.user?.email}) in <strong>{viewer.organization.name}</strong> as {viewer.role.toLowerCase()}.
      </p>
      <Organizations />
      {admin ? <ApiKeys /> : <p>API keys and budgets are managed by the organization's owners and admins.</p>}
      {admin ? <Budget /> : null}
      <Usage />
    </>
  );
}

function Organizations() {
  const { token, viewer, signIn } = useSession();
  const state = useGraphql<{ organizations: { nodes: { id: string; slug: string; name: string; personal: boolean; viewerRole: string | null }[] } }>(ORGS, {});
  const [error, setError] = useState<string | null>(null);
  const switchTo = async (id: string) => {
    try {
      const data = await graphql<{ switchOrganization: { accessToken: string } }>('mutation($id: ID!) { switchOrganization(id: $id) { accessToken } }', { id }, token);
      await signIn(data.switchOrganization.accessToken);
    } catch (e) {
      setError(message(e));
    }
  };
  return (
    <section aria-labelledby="orgs-title">
      <h2 id="orgs-title">Organizations</h2>
      {error ? <p role="alert">{error}</p> : null}
      <Async state={state} what="organizations">
        {({ organizations }) => (
          <ul className="orgs">
            {organizations.nodes.map((o) => (
              <li key={o.id}>
                {o.name} ({o.slug}{o.personal ? ', personal' : ''}) · {o.viewerRole?.toLowerCase()}{' '}
                {o.id === viewer?.organization.id ? (
                  <strong>current</strong>
                ) : (
                  <button type="button" onClick={() => void switchTo(o.id)}>
                    Switch to {o.name}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </Async>
    </section>
  );
}

function ApiKeys() {
  const { token } = useSession();
  const state = useGraphql<{ apiKeys: { nodes: { id: string; name: string; prefix: string; role: string; createdAt: string; lastUsedAt: string | null; revokedAt: string | null }[] } }>(KEYS, {});
  const [created, setCreated] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const create = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    try {
      const data = await graphql<{ createApiKey: { key: string } }>('mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { key } }', { input: { name: String(form.get('name')), role: String(form.get('role')) } }, token);
      setCreated(data.createApiKey.key);
      setError(null);
      state.refetch();
    } catch (err) {
      setError(message(err));
    }
  };
  const revoke = async (id: string) => {
    await graphql('mutation($id: ID!) { revokeApiKey(id: $id) { revokedAt } }', { id }, token).catch((err: unknown) => setError(message(err)));
    state.refetch();
  };
  return (
    <section aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <form className="pickers" onSubmit={create} aria-label="Create an API key">
        <label>
          Key name
          <input name="name" required maxLength={120} />
        </label>
        <label>
          Role
          <select name="role" defaultValue="MEMBER">
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r.toLowerCase()}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Create key</button>
      </form>
      {error ? <p role="alert">{error}</p> : null}
      {created ? (
        <div className="panel once" role="status">
          <p>
            <strong>Copy this key now: it is shown only once.</strong>
          </p>
          <output data-testid="new-api-key">{created}</output>
        </div>
      ) : null}
      <Async state={state} what="API keys">
        {({ apiKeys }) =>
          apiKeys.nodes.length === 0 ? (
            <Empty>No API keys yet.</Empty>
          ) : (
            <div className="table-scroll">
              <table>
                <caption>Keys of this organization (only their prefix is stored in clear)</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Prefix</th>
                    <th scope="col">Role</th>
                    <th scope="col">Last used</th>
                    <th scope="col">State</th>
                  </tr>
                </thead>
                <tbody>
                  {apiKeys.nodes.map((k) => (
                    <tr key={k.id}>
                      <th scope="row">{k.name}</th>
                      <td>
                        <code>{k.prefix}</code>
                      </td>
                      <td>{k.role.toLowerCase()}</td>
                      <td>{dateTime(k.lastUsedAt)}</td>
                      <td>
                        {k.revokedAt ? (
                          `revoked ${dateTime(k.revokedAt)}`
                        ) : (
                          <button type="button" onClick={() => void revoke(k.id)} aria-label={`Revoke ${k.name}`}>
                            Revoke
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Async>
    </section>
  );
}

interface BudgetState {
  monthlyBudgetUsd: number | null;
  alertWebhookUrl: string | null;
  spentThisMonthUsd: number;
  overrunUsd: number;
}
const BUDGET_FIELDS = 'monthlyBudgetUsd alertWebhookUrl spentThisMonthUsd overrunUsd';

function Budget() {
  const { token } = useSession();
  const current = useGraphql<{ organizationBudget: BudgetState }>(`query { organizationBudget { ${BUDGET_FIELDS} } }`, {});
  const [saved, setSaved] = useState<BudgetState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const result = saved ?? current.data?.organizationBudget ?? null;
  const save = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const raw = String(new FormData(e.currentTarget).get('monthly') ?? '').trim();
    try {
      const data = await graphql<{ updateOrganizationBudget: BudgetState }>(
        `mutation($input: OrganizationBudgetInput!) { updateOrganizationBudget(input: $input) { ${BUDGET_FIELDS} } }`,
        { input: { monthlyBudgetUsd: raw === '' ? null : Number(raw) } },
        token,
      );
      setSaved(data.updateOrganizationBudget);
      setError(null);
    } catch (err) {
      setError(message(err));
    }
  };
  return (
    <section aria-labelledby="budget-title">
      <h2 id="budget-title">Monthly budget</h2>
      {result ? (
        <p role="status" data-testid="budget-status">
          Cap {result.monthlyBudgetUsd == null ? 'none' : usd(result.monthlyBudgetUsd)}; spent this month {usd(result.spentThisMonthUsd)}; overrun {usd(result.overrunUsd)}.
          {result.alertWebhookUrl ? ` Alerts go to ${result.alertWebhookUrl}.` : ' No alert webhook.'}
        </p>
      ) : current.error ? (
        <p role="alert">Could not load the budget: {current.error.message}</p>
      ) : (
        <Loading what="Loading the budget" />
      )}
      <form className="pickers" onSubmit={save} aria-label="Organization monthly budget" key={current.data ? 'loaded' : 'loading'}>
        <label>
          Monthly cap in USD (empty: none)
          <input name="monthly" type="number" min={0} step="0.01" inputMode="decimal" defaultValue={current.data?.organizationBudget.monthlyBudgetUsd ?? ''} />
        </label>
        <button type="submit">Save budget</button>
      </form>
      {error ? <p role="alert">{error}</p> : null}
    </section>
  );
}

interface UsageRow {
  campaignId: string | null;
  campaignName: string | null;
  calls: number;
  executions: number;
  costUsd: number;
  resolved: number | null;
  costPerResolvedUsd: number | null;
  unpricedCalls?: number;
  tokens: { total: number };
}

function Usage() {
  const state = useGraphql<{ total: UsageRow[]; byCampaign: UsageRow[] }>(USAGE, {});
  return (
    <section aria-labelledby="usage-title">
      <h2 id="usage-title">Usage</h2>
      <Async state={state} what="usage">
        {({ total, byCampaign }) => (
          <>
            <p>
              Total: {int(total[0]?.calls ?? 0)} model calls, {int(total[0]?.tokens.total ?? 0)} tokens, {usd(total[0]?.costUsd ?? 0)}
              {total[0]?.unpricedCalls ? ` (${total[0].unpricedCalls} unpriced calls)` : ''}.
            </p>
            {byCampaign.length === 0 ? (
              <Empty>No recorded model calls yet (imported results have no ledger rows).</Empty>
            ) : (
              <div className="table-scroll">
                <table>
                  <caption>Usage by campaign</caption>
                  <thead>
                    <tr>
                      <th scope="col">Campaign</th>
                      <th scope="col" className="num">Calls</th>
                      <th scope="col" className="num">Executions</th>
                      <th scope="col" className="num">Tokens</th>
                      <th scope="col" className="num">Cost</th>
                      <th scope="col" className="num">$ / resolved</th>
                    </tr>
                  </thead>
                  <tbody>
                    {byCampaign.map((r) => (
                      <tr key={r.campaignId ?? 'none'}>
                        <th scope="row">{r.campaignName ?? '–'}</th>
                        <td className="num">{int(r.calls)}</td>
                        <td className="num">{int(r.executions)}</td>
                        <td className="num">{int(r.tokens.total)}</td>
                        <td className="num">{usd(r.costUsd)}</td>
                        <td className="num">{usd(r.costPerResolvedUsd)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </>
        )}
      </Async>
    </section>
  );
}
