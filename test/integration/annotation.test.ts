import { STARTER_NODES, codebookPatterns } from '#libs/annotation';
import { annotationAgreement } from '#libs/metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, signUp, startTestApi, type TestApi } from '../support/api.js';
import { createCampaignFixture, jsonl, recordFor, type CampaignFixture } from '../support/campaign-fixture.js';

type User = { token: string; userId: string; orgId: string };

/**
 * Double-blind failure annotation: codebooks, assignment, blindness, roles,
 * agreement and adjudication, and the numbers libs/metrics gives on the
 * stored labels.
 */
describe('failure annotation', () => {
  let api: TestApi;
  let owner: User;
  let annotatorA: User;
  let annotatorB: User;
  let adjudicator: User;
  let member: User;
  let viewer: User;
  let outsider: User;
  let campaign: CampaignFixture;
  let annotationCampaign: string;
  let starterVersion: string;

  const gql = async <T = any>(query: string, variables: Record<string, unknown>, user: User): Promise<T> => {
    const res = await api.gql<T>(query, variables, user.token);
    if (res.errors) throw new Error(JSON.stringify(res.errors));
    return res.data!;
  };
  /** A user of the owner's org with this role (signed up, invited, switched to the org). */
  const join = async (name: string, role: string): Promise<User> => {
    const user = await signUp(api, name);
    const invited = await api.gql('mutation($i: InviteMemberInput!) { inviteMember(input: $i) { acceptedAt } }', { i: { email: user.email, role } }, owner.token);
    expect(invited.errors).toBeUndefined();
    const switched = await api.gql<any>('mutation($id: ID!) { switchOrganization(id: $id) { accessToken } }', { id: owner.orgId }, user.token);
    expect(switched.errors).toBeUndefined();
    return { token: switched.data.switchOrganization.accessToken, userId: user.userId, orgId: owner.orgId };
  };
  const NEXT = 'mutation($c: ID!) { nextAnnotationItem(annotationCampaign: $c) { slot reservedUntil item { id executionId pairedExecutionId status } } }';
  const SUBMIT = 'mutation($i: ID!, $l: [LabelInput!]!) { submitAnnotation(item: $i, labels: $l) { id slot revision labels { pattern rationale } } }';
  const ITEM = 'query($i: ID!) { annotationItem(id: $i) { id status annotations { slot revision labels { pattern } } } }';
  const label = (pattern: string) => ({ pattern, rationale: `because ${pattern}` });

  beforeAll(async () => {
    api = await startTestApi();
    const o = await signUp(api, 'lab-owner');
    owner = { token: o.token, userId: o.userId, orgId: o.orgId };
    annotatorA = await join('annotator-a', 'ANNOTATOR');
    annotatorB = await join('annotator-b', 'ANNOTATOR');
    adjudicator = await join('adjudicator', 'ADJUDICATOR');
    member = await join('member', 'MEMBER');
    viewer = await join('viewer', 'VIEWER');
    const other = await signUp(api, 'other-lab');
    outsider = { token: other.token, userId: other.userId, orgId: other.orgId };

    campaign = await createCampaignFixture(api.db.dataSource, { orgId: owner.orgId, repetitions: 1 });
    const key = (await gql<any>('mutation { createApiKey(input: { name: "import", role: MEMBER }) { key } }', {}, owner)).createApiKey.key;
    const res = await fetch(`${api.url}/v1/campaigns/${campaign.campaignId}/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` },
      body: jsonl(campaign.units.map((u, i) => recordFor(u, i))),
    });
    expect(res.status).toBe(200);
    // One concurrent execution's trajectory has two sub-agents writing one file at once.
    const target = campaign.units.find((u) => u.mode === 'concurrent' && u.agent === 'codex' && u.task === 'flask')!;
    const t = (s: number) => new Date(Date.UTC(2026, 5, 1, 10, 0, s)).toISOString();
    const events = [
      ['e1', 'agent.start', 'main', t(0), { parentAgentId: null }],
      ['e2', 'agent.start', 'sub-1', t(1), { parentAgentId: 'main' }],
      ['e3', 'agent.start', 'sub-2', t(2), { parentAgentId: 'main' }],
      ['e4', 'file.write', 'sub-1', t(3), { path: 'src/app.py', bytes: 10 }],
      ['e5', 'file.write', 'sub-2', t(4), { path: 'src/app.py', bytes: 12 }],
      ['e6', 'agent.end', 'sub-1', t(5), { status: 'ok' }],
      ['e7', 'agent.end', 'sub-2', t(6), { status: 'ok' }],
      ['e8', 'agent.end', 'main', t(9), { status: 'ok' }],
    ] as const;
    for (const [id, type, agent, time, data] of events) {
      await api.db.dataSource.query(
        `INSERT INTO trajectory_events (execution_id, attempt, event_id, org_id, type, agent_id, time, data) VALUES ($1, 1, $2, $3, $4, $5, $6, $7)`,
        [target.id, id, owner.orgId, type, agent, time, JSON.stringify(data)],
      );
    }
  });
  afterAll(() => api.close());

  it('offers the built-in starter codebook (four categories, the named patterns, no_failure) and keeps org codebooks to their org', async () => {
    const { codebooks } = await gql<any>('query { codebooks { id key builtIn versions { id status nodes { key level parentKey } } } }', {}, owner);
    const starter = codebooks.find((c: any) => c.builtIn);
    starterVersion = starter.versions[0].id;
    const keys = starter.versions[0].nodes.map((n: any) => n.key);
    for (const k of ['task_orchestration', 'execution_governance', 'global_context', 'shared_state_merging', 'load_imbalance', 'fanout_budget_exhaustion', 'wrong_start_timing', 'wrong_join_timing', 'wrong_result_timing', 'premature_termination', 'concurrent_writes', 'deliverable_overwrite', 'no_failure']) {
      expect(keys).toContain(k);
    }
    // An org's own codebook, extending the starter: a draft until published, then immutable.
    const nodes = [...STARTER_NODES, { key: 'flaky_merge', level: 'pattern', parentKey: 'shared_files', label: 'Flaky merge', definition: 'x', examples: [] }];
    const draft = (await gql<any>('mutation($i: CreateCodebookInput!) { createCodebook(input: $i) { id status } }', { i: { key: 'ours', name: 'Ours', nodes } }, owner)).createCodebook;
    expect(draft.status).toBe('draft');
    const refused = await api.gql('mutation($i: CreateAnnotationCampaignInput!) { createAnnotationCampaign(input: $i) { id } }', { i: { campaign: campaign.campaignId, codebookVersion: draft.id, name: 'x' } }, owner.token);
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'codebookVersion' });
    await gql('mutation($id: ID!) { publishCodebookVersion(id: $id) { status } }', { id: draft.id }, owner);
    expect(codeOf(await api.gql('mutation($id: ID!, $i: CodebookVersionInput!) { updateCodebookVersion(id: $id, input: $i) { id } }', { id: draft.id, i: { nodes } }, owner.token))).toBe('CONFLICT');
    const bad = await api.gql('mutation($i: CreateCodebookInput!) { createCodebook(input: $i) { id } }', { i: { key: 'bad', name: 'Bad', nodes: [{ key: 'p', level: 'pattern', parentKey: 'nowhere', label: 'P', definition: '' }] } }, owner.token);
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'nodes[0].parentKey' });
    const theirs = (await gql<any>('query { codebooks { key builtIn } }', {}, outsider)).codebooks;
    expect(theirs.map((c: any) => c.key)).toEqual(['study-starter']);
  });

  it('creates an annotation campaign over every concurrent execution with a result, each paired with its sequential run, with detector suggestions', async () => {
    expect(codeOf(await api.gql('mutation($i: CreateAnnotationCampaignInput!) { createAnnotationCampaign(input: $i) { id } }', { i: { campaign: campaign.campaignId, codebookVersion: starterVersion, name: 'x' } }, annotatorA.token))).toBe('FORBIDDEN');
    const created = (await gql<any>('mutation($i: CreateAnnotationCampaignInput!) { createAnnotationCampaign(input: $i) { id annotatorsPerItem blind progress { pending total } } }', { i: { campaign: campaign.campaignId, codebookVersion: starterVersion, name: 'Round 1' } }, member)).createAnnotationCampaign;
    annotationCampaign = created.id;
    const concurrent = campaign.units.filter((u) => u.mode === 'concurrent');
    expect(created).toMatchObject({ annotatorsPerItem: 2, blind: true, progress: { pending: concurrent.length, total: concurrent.length } });
    const [suggested] = await api.db.dataSource.query(
      `SELECT s.pattern, i.execution_id FROM annotation_suggestions s JOIN annotation_items i ON i.id = s.item_id WHERE i.annotation_campaign_id = $1`,
      [annotationCampaign],
    );
    expect(suggested.pattern).toBe('concurrent_writes');
  });

  it('is double-blind: annotator B cannot read A\'s labels on an item before both have submitted, nor A read B\'s', async () => {
    const a = (await gql<any>(NEXT, { c: annotationCampaign }, annotatorA)).nextAnnotationItem;
    expect(a.slot).toBe(1);
    expect(a.item.pairedExecutionId).not.toBeNull();
    await gql(SUBMIT, { i: a.item.id, l: [label('concurrent_writes')] }, annotatorA);
    // B is given the item A started (double coding completes first), in slot 2.
    const b = (await gql<any>(NEXT, { c: annotationCampaign }, annotatorB)).nextAnnotationItem;
    expect(b.item.id).toBe(a.item.id);
    expect(b.slot).toBe(2);
    for (const who of [annotatorB, annotatorA, adjudicator, owner]) {
      const peek = await api.gql(ITEM, { i: a.item.id }, who.token);
      expect(codeOf(peek)).toBe('FORBIDDEN');
    }
    expect((await gql<any>('query($i: ID!) { annotationItem(id: $i) { myAnnotations { slot } } }', { i: a.item.id }, annotatorB)).annotationItem.myAnnotations).toEqual([]);
    await gql(SUBMIT, { i: b.item.id, l: [label('concurrent_writes')] }, annotatorB);
    const open = (await gql<any>(ITEM, { i: a.item.id }, annotatorB)).annotationItem;
    expect(open.status).toBe('agreed');
    expect(open.annotations.map((x: any) => x.slot)).toEqual([1, 2]);
  });

  it('enforces roles: only annotators label, only adjudicators adjudicate, and another org sees nothing', async () => {
    for (const who of [member, viewer]) {
      expect(codeOf(await api.gql(NEXT, { c: annotationCampaign }, who.token))).toBe('FORBIDDEN');
    }
    const [item] = await api.db.dataSource.query(`SELECT id FROM annotation_items WHERE annotation_campaign_id = $1 AND status = 'pending' LIMIT 1`, [annotationCampaign]);
    expect(codeOf(await api.gql(SUBMIT, { i: item.id, l: [label('no_failure')] }, member.token))).toBe('FORBIDDEN');
    // An annotator who holds no slot on the item cannot submit for it either.
    expect(codeOf(await api.gql(SUBMIT, { i: item.id, l: [label('no_failure')] }, annotatorB.token))).toBe('FORBIDDEN');
    for (const query of [
      ['query($c: ID!) { annotationCampaign(id: $c) { id } }', { c: annotationCampaign }],
      [NEXT, { c: annotationCampaign }],
      [ITEM, { i: item.id }],
      ['query($c: ID!) { annotationCampaigns(campaign: $c) { id } }', { c: campaign.campaignId }],
    ] as const) {
      expect(codeOf(await api.gql(query[0], query[1], outsider.token)), query[0]).toBe('NOT_FOUND');
    }
    expect((await gql<any>('query { annotationCampaigns { id } }', {}, outsider)).annotationCampaigns).toEqual([]);
  });

  it('disagreement goes to discussion and adjudication by an adjudicator who did not label the item, with each label\'s source checked', async () => {
    const a = (await gql<any>(NEXT, { c: annotationCampaign }, annotatorA)).nextAnnotationItem;
    await gql(SUBMIT, { i: a.item.id, l: [label('premature_termination'), label('load_imbalance')] }, annotatorA);
    const b = (await gql<any>(NEXT, { c: annotationCampaign }, annotatorB)).nextAnnotationItem;
    expect(b.item.id).toBe(a.item.id);
    await gql(SUBMIT, { i: b.item.id, l: [label('premature_termination')] }, annotatorB);
    expect((await gql<any>(ITEM, { i: a.item.id }, annotatorA)).annotationItem.status).toBe('disagreed');
    await gql('mutation($i: ID!) { addAnnotationComment(item: $i, body: "I saw the imbalance in the first minute") { id } }', { i: a.item.id }, annotatorA);
    expect(codeOf(await api.gql('mutation($i: ID!) { addAnnotationComment(item: $i, body: "x") { id } }', { i: a.item.id }, member.token))).toBe('FORBIDDEN');
    const ADJ = 'mutation($i: ID!, $l: [AdjudicatedLabelInput!]!) { adjudicateItem(item: $i, labels: $l, rationale: "discussed") { labels { pattern source } } }';
    const final = [
      { pattern: 'premature_termination', rationale: 'both saw it', source: 'both' },
      { pattern: 'load_imbalance', rationale: 'A was right', source: 'A' },
    ];
    expect(codeOf(await api.gql(ADJ, { i: a.item.id, l: final }, annotatorB.token))).toBe('FORBIDDEN');
    const wrongSource = await api.gql(ADJ, { i: a.item.id, l: [{ ...final[1], source: 'B' }] }, adjudicator.token);
    expect(wrongSource.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'labels[0].source' });
    const done = (await gql<any>(ADJ, { i: a.item.id, l: final }, adjudicator)).adjudicateItem;
    expect(done.labels).toEqual([
      { pattern: 'premature_termination', source: 'both' },
      { pattern: 'load_imbalance', source: 'A' },
    ]);
    // What awaits adjudication is listed by status (before this one was decided it was there).
    const listed = (await gql<any>('query($c: ID!) { annotationCampaign(id: $c) { items(status: ["adjudicated"]) { totalCount nodes { id status } } } }', { c: annotationCampaign }, adjudicator)).annotationCampaign.items;
    expect(listed).toEqual({ totalCount: 1, nodes: [{ id: a.item.id, status: 'adjudicated' }] });
    const badStatus = await api.gql('query($c: ID!) { annotationCampaign(id: $c) { items(status: ["done"]) { totalCount } } }', { c: annotationCampaign }, adjudicator.token);
    expect(badStatus.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'status' });
    const item = (await gql<any>('query($i: ID!) { annotationItem(id: $i) { status comments { body } adjudication { rationale } } }', { i: a.item.id }, annotatorB)).annotationItem;
    expect(item).toMatchObject({ status: 'adjudicated', comments: [{ body: 'I saw the imbalance in the first minute' }], adjudication: { rationale: 'discussed' } });
    expect(codeOf(await api.gql(SUBMIT, { i: a.item.id, l: [label('no_failure')] }, annotatorA.token))).toBe('CONFLICT');
  });

  it('keeps corrections as revisions, returns abandoned reservations to the pool, and refuses bad labels naming the field', async () => {
    const a = (await gql<any>(NEXT, { c: annotationCampaign }, annotatorA)).nextAnnotationItem;
    const bad = await api.gql(SUBMIT, { i: a.item.id, l: [label('no_failure'), label('load_imbalance')] }, annotatorA.token);
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'labels' });
    const unknown = await api.gql(SUBMIT, { i: a.item.id, l: [label('made_up')] }, annotatorA.token);
    expect(unknown.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'labels[0].pattern' });
    await gql(SUBMIT, { i: a.item.id, l: [label('wrong_join_timing')] }, annotatorA);
    const second = (await gql<any>(SUBMIT, { i: a.item.id, l: [label('no_failure')] }, annotatorA)).submitAnnotation;
    expect(second.revision).toBe(2);
    // B reserves the item and walks away: once the reservation expires it returns to the pool for someone else.
    const b = (await gql<any>(NEXT, { c: annotationCampaign }, annotatorB)).nextAnnotationItem;
    expect(b.item.id).toBe(a.item.id);
    await api.db.dataSource.query(`UPDATE annotation_assignments SET reserved_until = now() - interval '1 minute' WHERE item_id = $1 AND annotator_user_id = $2`, [a.item.id, annotatorB.userId]);
    const c = (await gql<any>(NEXT, { c: annotationCampaign }, adjudicator)).nextAnnotationItem;
    expect(c.item.id).toBe(a.item.id);
    expect(c.slot).toBe(2);
    expect(codeOf(await api.gql(SUBMIT, { i: a.item.id, l: [label('no_failure')] }, annotatorB.token))).toBe('FORBIDDEN');
    await gql(SUBMIT, { i: a.item.id, l: [label('no_failure')] }, adjudicator);
    // The latest revisions agree.
    expect((await gql<any>(ITEM, { i: a.item.id }, annotatorA)).annotationItem.status).toBe('agreed');
  });

  it("kappa from the stored labels equals libs/metrics on the same input; the failure view shows the distribution; export and import round-trip", async () => {
    const stored: { item_id: string; slot: number; labels: { pattern: string }[] }[] = await api.db.dataSource.query(
      `SELECT DISTINCT ON (a.item_id, a.slot) a.item_id, a.slot, a.labels FROM annotations a JOIN annotation_items i ON i.id = a.item_id
        WHERE i.annotation_campaign_id = $1 ORDER BY a.item_id, a.slot, a.revision DESC`,
      [annotationCampaign],
    );
    const byItem = new Map<string, { slot1?: string[]; slot2?: string[] }>();
    for (const s of stored) byItem.set(s.item_id, { ...byItem.get(s.item_id), [s.slot === 1 ? 'slot1' : 'slot2']: s.labels.map((l) => l.pattern) });
    const doubly = [...byItem].filter(([, v]) => v.slot1 && v.slot2).sort(([x], [y]) => (x < y ? -1 : 1)).map(([trajectoryId, v]) => ({ trajectoryId, slot1: v.slot1!, slot2: v.slot2! }));
    expect(doubly).toHaveLength(3);
    const expected = annotationAgreement(codebookPatterns(STARTER_NODES), doubly);
    const results = (await gql<any>('query($c: ID!) { annotationCampaign(id: $c) { results } }', { c: annotationCampaign }, annotatorA)).annotationCampaign.results;
    expect(results.agreement).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(results.final).toBe(3);
    // The detector suggested concurrent writes on one item: its precision and recall against final labels are reported.
    expect(results.suggestionAccuracy).toBeTruthy();

    const failures = (await gql<any>('query($c: ID!) { failures(campaign: $c) { available reason annotatedExecutions pooledKappa distribution { level key agent count share } } }', { c: campaign.campaignId }, owner)).failures;
    expect(failures).toMatchObject({ available: true, reason: null, annotatedExecutions: 3, pooledKappa: expected.pooled.pattern.kappa });
    expect(failures.distribution.find((d: any) => d.level === 'PATTERN' || d.level === 'pattern')).toBeTruthy();
    // Another org: the campaign is private, NOT_FOUND.
    expect(codeOf(await api.gql('query($c: ID!) { failures(campaign: $c) { available } }', { c: campaign.campaignId }, outsider.token))).toBe('NOT_FOUND');

    const exported = (await gql<any>('query($c: ID!) { annotationCampaign(id: $c) { finalLabels } }', { c: annotationCampaign }, annotatorA)).annotationCampaign.finalLabels;
    expect(exported).toHaveLength(3);
    expect(exported.find((f: any) => f.status === 'adjudicated').adjudicationRationale).toBe('discussed');
    const pending: { execution_id: string }[] = await api.db.dataSource.query(`SELECT execution_id FROM annotation_items WHERE annotation_campaign_id = $1 AND status = 'pending' ORDER BY id`, [annotationCampaign]);
    const IMPORT = 'mutation($c: ID!, $l: [ImportedLabelsInput!]!) { importAnnotations(annotationCampaign: $c, lines: $l) { imported } }';
    const lines = pending.map((p) => ({ execution: p.execution_id, labels: [label('no_failure')], rationale: 'labelled in our old tool' }));
    expect(codeOf(await api.gql(IMPORT, { c: annotationCampaign, l: lines }, annotatorA.token))).toBe('FORBIDDEN');
    const badLine = await api.gql(IMPORT, { c: annotationCampaign, l: [...lines, { execution: exported[0].executionId, labels: [label('no_failure')] }] }, adjudicator.token);
    expect(codeOf(badLine)).toBe('CONFLICT');
    expect((await api.db.dataSource.query(`SELECT count(*)::int AS n FROM adjudications`))[0].n).toBe(1);
    expect((await gql<any>(IMPORT, { c: annotationCampaign, l: lines }, adjudicator)).importAnnotations.imported).toBe(pending.length);
    const after = (await gql<any>('query($c: ID!) { annotationCampaign(id: $c) { progress { pending agreed adjudicated total } } }', { c: annotationCampaign }, owner)).annotationCampaign.progress;
    expect(after.pending).toBe(0);
    expect(after.agreed + after.adjudicated).toBe(after.total);
  });
});
