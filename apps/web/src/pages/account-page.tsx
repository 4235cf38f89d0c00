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


/** The organization roles as select options (lower-case labels, enum values). */
function RoleOptions() {
  return (
    <>
      {ROLES.map((r) => (
        <option key={r} value={r}>
          {r.toLowerCase()}
        </option>
      ))}
    </>
  );
}

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
      <Members admin={admin} />
      {admin ? <ApiKeys /> : <p>API keys and budgets are managed by the organization's owners and admins.</p>}
      {admin ? <Budget /> : null}
      <Usage />
      <Billing />
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
            <RoleOptions />
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

interface MemberRow {
  id: string;
  role: string;
  createdAt: string;
  user: { id: string; name: string; email: string };
}
interface InvitationRow {
  id: string;
  email: string;
  role: string;
  createdAt: string;
  acceptedAt: string | null;
}
const MEMBERS = 'query($id: ID!) { organization(id: $id) { members(first: 100) { totalCount nodes { id role createdAt user { id name email } } } } }';
const INVITATIONS = 'query($id: ID!) { organization(id: $id) { invitations(first: 100) { totalCount nodes { id email role createdAt acceptedAt } } } }';

/** Members of the current organization; owners and admins invite, change roles and remove (the API has the last word). */
function Members({ admin }: { admin: boolean }) {
  const { token, viewer } = useSession();
  const orgId = viewer?.organization.id ?? '';
  const members = useGraphql<{ organization: { members: { totalCount: number; nodes: MemberRow[] } } }>(MEMBERS, { id: orgId });
  const invitations = useGraphql<{ organization: { invitations: { totalCount: number; nodes: InvitationRow[] } } }>(INVITATIONS, { id: orgId }, { skip: !admin });
  const [inviteError, setInviteError] = useState<string | null>(null);
  const [invited, setInvited] = useState<string | null>(null);
  /** Errors per member row, shown next to that row's controls. */
  const [rowErrors, setRowErrors] = useState<Record<string, string>>({});
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const rowError = (userId: string, e: unknown) => setRowErrors((r) => ({ ...r, [userId]: message(e) }));
  const clearRow = (userId: string) =>
    setRowErrors((r) => {
      const next = { ...r };
      delete next[userId];
      return next;
    });

  const invite = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const formEl = e.currentTarget;
    const form = new FormData(formEl);
    const email = String(form.get('email')).trim();
    try {
      const data = await graphql<{ inviteMember: { email: string; acceptedAt: string | null } }>(
        'mutation($input: InviteMemberInput!) { inviteMember(input: $input) { email acceptedAt } }',
        { input: { email, role: String(form.get('role')) } },
        token,
      );
      setInvited(data.inviteMember.acceptedAt ? `${data.inviteMember.email} already had an account and is now a member.` : `${data.inviteMember.email} is invited: they join when they sign up.`);
      setInviteError(null);
      formEl.reset();
      members.refetch();
      invitations.refetch();
    } catch (err) {
      setInvited(null);
      setInviteError(message(err));
    }
  };
  const changeRole = async (m: MemberRow) => {
    const role = drafts[m.user.id] ?? m.role;
    try {
      await graphql('mutation($input: UpdateMemberRoleInput!) { updateMemberRole(input: $input) { role } }', { input: { userId: m.user.id, role } }, token);
      clearRow(m.user.id);
      members.refetch();
    } catch (err) {
      rowError(m.user.id, err);
    }
  };
  const remove = async (m: MemberRow) => {
    if (!window.confirm(`Remove ${m.user.name} (${m.user.email}) from ${viewer?.organization.name}?`)) return;
    try {
      await graphql('mutation($id: ID!) { removeMember(userId: $id) { id } }', { id: m.user.id }, token);
      clearRow(m.user.id);
      members.refetch();
    } catch (err) {
      rowError(m.user.id, err);
    }
  };

  return (
    <section aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      {admin ? (
        <>
          <form className="pickers" onSubmit={invite} aria-label="Invite a member">
            <label>
              Email to invite
              <input name="email" type="email" required maxLength={320} autoComplete="off" />
            </label>
            <label>
              Invited role
              <select name="role" defaultValue="MEMBER">
                <RoleOptions />
              </select>
            </label>
            <button type="submit">Invite</button>
          </form>
          {inviteError ? (
            <p role="alert" className="error" data-testid="invite-error">
              {inviteError}
            </p>
          ) : null}
          {invited ? (
            <p role="status" data-testid="invite-status">
              {invited}
            </p>
          ) : null}
        </>
      ) : (
        <p>Owners and admins invite members and change their roles.</p>
      )}
      <Async state={members} what="members">
        {({ organization }) => (
          <div className="table-scroll">
            <table>
              <caption>
                {organization.members.totalCount} member{organization.members.totalCount === 1 ? '' : 's'} of {viewer?.organization.name}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Since</th>
                  {admin ? <th scope="col">Actions</th> : null}
                </tr>
              </thead>
              <tbody>
                {organization.members.nodes.map((m) => (
                  <tr key={m.id}>
                    <th scope="row">{m.user.name}</th>
                    <td>{m.user.email}</td>
                    <td>
                      {admin ? (
                        <label>
                          <span className="visually-hidden">Role of {m.user.email}</span>
                          <select value={drafts[m.user.id] ?? m.role} onChange={(e) => setDrafts((d) => ({ ...d, [m.user.id]: e.target.value }))}>
                            <RoleOptions />
                          </select>
                        </label>
                      ) : (
                        m.role.toLowerCase()
                      )}
                    </td>
                    <td>{dateTime(m.createdAt)}</td>
                    {admin ? (
                      <td>
                        <button type="button" onClick={() => void changeRole(m)} aria-label={`Change role of ${m.user.email}`} disabled={(drafts[m.user.id] ?? m.role) === m.role}>
                          Change role
                        </button>{' '}
                        {m.user.id === viewer?.user?.id ? null : (
                          <button type="button" onClick={() => void remove(m)} aria-label={`Remove ${m.user.email}`}>
                            Remove
                          </button>
                        )}
                        {rowErrors[m.user.id] ? (
                          <span role="alert" className="error" data-testid="member-error">
                            {' '}
                            {rowErrors[m.user.id]}
                          </span>
                        ) : null}
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Async>
      {admin ? (
        <Async state={invitations} what="invitations">
          {({ organization }) =>
            organization.invitations.nodes.length === 0 ? (
              <Empty>No open invitations.</Empty>
            ) : (
              <div className="table-scroll">
                <table>
                  <caption>Open invitations (they join when they sign up with this email)</caption>
                  <thead>
                    <tr>
                      <th scope="col">Email</th>
                      <th scope="col">Role</th>
                      <th scope="col">Invited</th>
                    </tr>
                  </thead>
                  <tbody>
                    {organization.invitations.nodes.map((i) => (
                      <tr key={i.id}>
                        <th scope="row">{i.email}</th>
                        <td>{i.role.toLowerCase()}</td>
                        <td>{dateTime(i.createdAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )
          }
        </Async>
      ) : null}
    </section>
  );
}

interface BillingStatus {
  enabled: boolean;
  hasCustomer: boolean;
  hold: boolean;
  plan: string | null;
  pendingHours: number;
  failedHours: number;
  lastDeliveredHour: string | null;
}
const BILLING = 'query { me { organization { billing { enabled hasCustomer hold plan pendingHours failedHours lastDeliveredHour } } } }';

/** Stripe billing of the current organization (docs/billing.md); there is no checkout from the UI. */
function Billing() {
  const state = useGraphql<{ me: { organization: { billing: BillingStatus | null } } }>(BILLING, {});
  return (
    <section aria-labelledby="billing-title">
      <h2 id="billing-title">Billing</h2>
      <Async state={state} what="billing">
        {({ me }) => {
          const b = me.organization.billing;
          if (!b || !b.enabled)
            return (
              <p data-testid="billing-status">
                Stripe is off on this server: nothing is billed, and campaigns, budgets and usage work the same. An operator turns it on with <code>STRIPE_SECRET_KEY</code> (docs/billing.md).
              </p>
            );
          return (
            <>
              <p data-testid="billing-status" role={b.hold ? 'alert' : undefined}>
                {b.hold ? (
                  <strong>Billing hold: an invoice payment failed, and no campaign can be launched until it is paid.</strong>
                ) : (
                  'Stripe is on; no billing hold.'
                )}{' '}
                Plan: {b.plan ?? 'none yet'}.
              </p>
              <dl className="stats">
                <dt>Stripe customer</dt>
                <dd>{b.hasCustomer ? 'yes' : 'not yet (created when the first hour of spend is reported)'}</dd>
                <dt>Last hour reported</dt>
                <dd>{dateTime(b.lastDeliveredHour)}</dd>
                <dt>Hours waiting to be reported</dt>
                <dd>{int(b.pendingHours)}</dd>
                <dt>Hours Stripe refused</dt>
                <dd>{b.failedHours ? `${int(b.failedHours)} (an operator must look)` : '0'}</dd>
              </dl>
              <details>
                <summary>How billing works</summary>
                <p>
                  Your spend (the cost of priced model calls) is reported to Stripe once per closed UTC hour, in micro-dollars, and billed on your Stripe subscription. Prepaid credit bought through Stripe Checkout raises
                  your monthly budget by its amount. When an invoice payment fails, a billing hold stops new campaign launches until the invoice is paid. Your plan and maximum
                  concurrency come from your Stripe subscription.
                </p>
              </details>
            </>
          );
        }}
      </Async>
    </section>
  );
}
