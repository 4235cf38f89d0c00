// The demo agent (docs/demo.md): `node dist/apps/demo-agent/src/main.js`
// with cwd = the task workspace. Sub-agents are this same program started
// with DEMO_ROLE=sub|checker.
import { readConfig } from './config.js';
import { runChecker, runConcurrent, runSequential, runSubAgent } from './flows.js';
import { loadPlan } from './plan.js';

async function main(): Promise<void> {
  const cfg = readConfig(process.env, process.cwd());
  const plan = loadPlan(cfg.planPath);
  const role = process.env.DEMO_ROLE ?? 'main';
  const agentId = process.env.DEMO_AGENT_ID ?? 'sub-1';
  const parentCallId = process.env.DEMO_PARENT_CALL_ID || null;
  if (role === 'sub') await runSubAgent(cfg, plan, agentId, parentCallId, (process.env.DEMO_STEPS ?? '').split(',').filter(Boolean));
  else if (role === 'checker') await runChecker(cfg, plan, agentId, parentCallId);
  else if (cfg.concurrent) await runConcurrent(cfg, plan);
  else await runSequential(cfg, plan);
}

main().catch((error: unknown) => {
  console.error(`fanout-demo-agent: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
