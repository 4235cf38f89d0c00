import type { DataSource } from 'typeorm';
import type { AttemptDetails } from './job-manifests.js';

/** What the Kubernetes executor reads from the platform: the StartRequest carries ids only. */
export interface AttemptSource {
  /** Time budget, resources and names of one attempt. */
  details(executionId: string, attempt: number): Promise<AttemptDetails>;
  /** The org of an execution (its Job's namespace); null when it does not exist. */
  orgOf(executionId: string): Promise<string | null>;
  /** Orgs with attempts in flight: their namespaces are watched from the start, before anything new is dispatched. */
  activeOrgs(): Promise<string[]>;
}

/** The same rules as the runner's spec (runner-session.service): the campaign's time budget overrides the task's. */
export function databaseAttemptSource(dataSource: DataSource): AttemptSource {
  return {
    async details(executionId, attempt) {
      const rows: {
        org_id: string;
        slug: string | null;
        campaign_id: string;
        benchmark_key: string;
        suite_key: string;
        task_key: string;
        agent_name: string;
        mode: string;
        campaign_minutes: number | null;
        task: { timeBudgetMinutes?: number; resources?: { cpu?: string; memory?: string } } | null;
      }[] = await dataSource.query(
        `SELECT e.org_id, o.slug, e.campaign_id, e.benchmark_key, e.suite_key, e.task_key, e.agent_name, e.mode,
                (c.plan->>'timeBudgetMinutes')::float AS campaign_minutes,
                (SELECT t FROM jsonb_array_elements(b.manifest->'suites') s, jsonb_array_elements(s->'tasks') t
                  WHERE s->>'id' = e.suite_key AND t->>'id' = e.task_key LIMIT 1) AS task
           FROM executions e
           JOIN campaigns c ON c.id = e.campaign_id
           JOIN benchmark_versions b ON b.id = e.benchmark_version_id
           LEFT JOIN organizations o ON o.id = e.org_id
          WHERE e.id = $1`,
        [executionId],
      );
      const row = rows[0];
      if (!row) throw new Error(`execution ${executionId} does not exist`);
      const minutes = row.campaign_minutes ?? row.task?.timeBudgetMinutes ?? 60;
      return {
        executionId,
        attempt,
        orgId: row.org_id,
        orgSlug: row.slug,
        campaignId: row.campaign_id,
        benchmark: row.benchmark_key,
        task: `${row.suite_key}/${row.task_key}`,
        agent: row.agent_name,
        mode: row.mode,
        timeBudgetSeconds: minutes * 60,
        resources: row.task?.resources ?? null,
      };
    },
    async orgOf(executionId) {
      const rows: { org_id: string }[] = await dataSource.query('SELECT org_id FROM executions WHERE id = $1', [executionId]);
      return rows[0]?.org_id ?? null;
    },
    async activeOrgs() {
      const rows: { org_id: string }[] = await dataSource.query(`SELECT DISTINCT org_id FROM executions WHERE status IN ('dispatching', 'running')`);
      return rows.map((r) => r.org_id);
    },
  };
}
