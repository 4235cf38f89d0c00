import type { ModelUsage } from '#libs/contracts';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import type { DemoConfig } from './config.js';
import { EventLog } from './events.js';
import { applySite, mutationSites } from './mutate.js';
import type { Plan, PlanStep } from './plan.js';
import { pick, roll } from './rng.js';
import { compiles, listFiles, readText, regionBody, sha256, withRegion, writeAtomic } from './workspace.js';

export const PROVIDER = 'fanout';
export const MODEL = 'fanout/demo-agent';

/** Synthetic token economics (docs/demo.md "Tokens"). */
export const TOKENS = {
  /** System prompt and tool definitions every agent context starts with. */
  system: 2400,
  /** Hidden reasoning per work unit of a model call (counted in output, OpenAI style). */
  reasoningPerUnit: 40,
  /** What a file already known to the agent costs to look at again. */
  knownFile: 40,
  edit: 30,
  shellBase: 60,
  perTest: 12,
  perFailure: 160,
};

/** Probability that one attempt at a step goes wrong, before DEMO_MISTAKE_SCALE. */
export const MISTAKE_BASE = { easy: 0.03, medium: 0.055, hard: 0.08 } as const;

export function mistakeProbability(plan: Plan, step: PlanStep, attempt: number, scale: number): number {
  const p = MISTAKE_BASE[plan.difficulty] * (0.6 + step.effort / 10) * scale;
  return Math.min(1, attempt === 0 ? p : p / 2);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

const tokensOf = (text: string) => Math.ceil(text.length / 4);

export interface CheckResult {
  pass: number;
  fail: number;
  failing: string[];
  exitCode: number | null;
}

export interface StepWrite {
  step: string;
  file: string;
  /** sha256 of the region body this agent wrote. */
  sha: string;
  mistaken: boolean;
}

/**
 * One agent context (the main agent, a sub-agent or the checker): its own
 * event stream, its own growing context window, real edits to the shared
 * workspace, real test runs.
 */
export class Agent {
  readonly log: EventLog;
  /** Tokens in the context window. */
  context: number;
  /** Input of the previous model call: the cached prefix of the next one. */
  private lastInput = 0;
  /** sha256 of each file's content as this agent last saw it. */
  private readonly known = new Map<string, string>();
  readonly written: StepWrite[] = [];
  lastStep: PlanStep | null = null;

  constructor(
    readonly id: string,
    readonly cfg: DemoConfig,
    readonly plan: Plan,
  ) {
    this.log = new EventLog(id, cfg.eventsFile);
    this.context = TOKENS.system + tokensOf(plan.instruction);
  }

  start(parentAgentId: string | null, spawnedByToolCallId: string | null, name: string): void {
    this.log.emit({ type: 'agent.start', parentAgentId, spawnedByToolCallId, name });
  }

  end(status: 'ok' | 'error' | 'killed' = 'ok'): void {
    this.log.emit({ type: 'agent.end', status });
  }

  message(role: 'user' | 'assistant', text: string): void {
    this.log.emit({ type: 'message', role, text });
    this.context += tokensOf(text);
  }

  /** A model call: takes `units` of wall-clock time, reads the whole context, writes `output` tokens. */
  async think(units: number, output: number): Promise<void> {
    const started = Date.now();
    await sleep(units * this.cfg.unitMs);
    const input = this.context;
    const reasoning = Math.round(units * TOKENS.reasoningPerUnit);
    const usage: ModelUsage = {
      style: 'openai',
      inputTokens: input,
      cachedInputTokens: Math.min(this.lastInput, input),
      cacheWriteTokens: 0,
      outputTokens: Math.round(output) + reasoning,
      reasoningTokens: reasoning,
    };
    this.lastInput = input;
    this.context += Math.round(output);
    this.log.emit({ type: 'model.call', provider: PROVIDER, model: MODEL, usage, durationMs: Date.now() - started });
  }

  /** Reads files into the context (a file unchanged since this agent last saw it costs little). */
  readFiles(paths: string[]): Map<string, string | null> {
    const started = Date.now();
    const out = new Map<string, string | null>();
    for (const path of paths) {
      const text = readText(join(this.cfg.workspace, path));
      out.set(path, text);
      const sha = sha256(text ?? '');
      this.context += this.known.get(path) === sha ? TOKENS.knownFile : tokensOf(text ?? '') + 20;
      this.known.set(path, sha);
    }
    const toolCallId = this.log.callId();
    this.log.emit({ type: 'tool.call', toolCallId, kind: 'read', command: `read ${paths.join(' ')}`, exitCode: 0, durationMs: Date.now() - started, filesTouched: paths });
    return out;
  }

  /** Reads the task: README, the source files and the visible checks (the orientation every fresh context pays for). */
  async orient(files: string[], calls: number, unitsPerCall: number): Promise<void> {
    const list = listFiles(this.cfg.workspace);
    const chunk = Math.max(1, Math.ceil(files.length / calls));
    for (let c = 0; c < calls; c++) {
      const part = c === 0 ? ['README.md', ...files.slice(0, chunk)] : files.slice(c * chunk, (c + 1) * chunk);
      this.readFiles([...new Set(part)].filter((f) => list.includes(f)));
      await this.think(unitsPerCall, 120 + 40 * part.length);
    }
  }

  /**
   * One step: read the file, think (the model call: effort units of time),
   * write the file back with the step's region replaced in the text read
   * before thinking. Whatever another agent wrote to that file meanwhile is
   * overwritten: there is no coordination. A seeded roll decides whether
   * this attempt writes a subtly wrong fragment instead of the plan's.
   */
  async doStep(step: PlanStep, attempt: number): Promise<StepWrite> {
    const before = this.readFiles([step.file]).get(step.file) ?? null;
    const fragment = this.fragmentFor(step, before, attempt);
    await this.think(step.effort + 1, tokensOf(fragment.text) + 30 * step.effort);
    const started = Date.now();
    // A rewrite writes the whole file as the agent read it before thinking
    // (whatever changed meanwhile is lost); an edit patches the file as it is now.
    const rewrite = this.decide('rewrite', step.id, attempt) < this.cfg.rewriteShare;
    const base = rewrite ? before : readText(join(this.cfg.workspace, step.file));
    const after = withRegion(base, step.id, fragment.text);
    writeAtomic(join(this.cfg.workspace, step.file), after);
    const toolCallId = this.log.callId();
    const tool = rewrite ? 'write' : 'edit';
    this.log.emit({ type: 'tool.call', toolCallId, kind: 'edit', command: `${tool} ${step.file} (${step.id})`, exitCode: 0, durationMs: Date.now() - started, filesTouched: [step.file] });
    this.log.emit({ type: 'file.write', path: step.file, bytes: Buffer.byteLength(after), sha256: sha256(after) });
    this.known.set(step.file, sha256(after));
    this.context += TOKENS.edit;
    const write = { step: step.id, file: step.file, sha: sha256(fragment.text), mistaken: fragment.mistaken };
    this.written.push(write);
    this.lastStep = step;
    return write;
  }

  private fragmentFor(step: PlanStep, fileText: string | null, attempt: number): { text: string; mistaken: boolean } {
    const p = mistakeProbability(this.plan, step, attempt, this.cfg.mistakeScale);
    if (this.decide('mistake', step.id, attempt) >= p) return { text: step.fragment, mistaken: false };
    const sites = mutationSites(step.fragment);
    const first = pick(Math.max(1, sites.length), this.cfg.seed, this.plan.task, 'mistake-site', step.id, attempt);
    for (let k = 0; k < sites.length; k++) {
      const mutant = applySite(step.fragment, sites[(first + k) % sites.length]);
      if (compiles(withRegion(fileText, step.id, mutant))) return { text: mutant, mistaken: true };
    }
    return { text: step.fragment, mistaken: false };
  }

  /** The visible test files whose imports (followed transitively) include `file` (all of them when `file` is null). */
  checksFor(file: string | null): string[] {
    if (!this.plan.checks) return [];
    const dir = this.plan.checks;
    const tests = listFiles(this.cfg.workspace).filter((f) => f.startsWith(`${dir}/`) && f.endsWith('.test.js'));
    return file === null ? tests : tests.filter((t) => importClosure(this.cfg.workspace, t).includes(file));
  }

  /**
   * Whether running a check can tell this agent anything: every file it
   * imports is written (no region still a TODO). Running it earlier would
   * only show failures of work not done yet.
   */
  ready(check: string): boolean {
    return importClosure(this.cfg.workspace, check).every((f) => !hasTodo(readText(join(this.cfg.workspace, f))));
  }

  /** Runs visible tests for real (`node --test`), and reads the result into the context. */
  async runChecks(tests: string[]): Promise<CheckResult> {
    const started = Date.now();
    const args = ['--test', '--test-reporter=tap', '--test-timeout=5000', ...tests];
    const { code, stdout } = await run(process.execPath, args, this.cfg.workspace);
    const pass = Number(/^# pass (\d+)/m.exec(stdout)?.[1] ?? 0);
    const fail = Number(/^# fail (\d+)/m.exec(stdout)?.[1] ?? (code === 0 ? 0 : 1));
    const failing = [...stdout.matchAll(/^not ok \d+ - (.*)$/gm)].map((m) => m[1]);
    const result = { pass, fail, failing, exitCode: code };
    const output = `tests ${pass + fail}, pass ${pass}, fail ${fail}${failing.length ? `\nfailing: ${failing.join('; ')}` : ''}`;
    const toolCallId = this.log.callId();
    this.log.emit({ type: 'tool.call', toolCallId, kind: 'shell', command: `node ${args.join(' ')}`, exitCode: code, durationMs: Date.now() - started, output });
    this.context += TOKENS.shellBase + TOKENS.perTest * (pass + fail) + TOKENS.perFailure * fail;
    return result;
  }

  /** `node --check FILE`: the cheap look now and then between steps. */
  async syntaxCheck(file: string): Promise<void> {
    const started = Date.now();
    const { code } = await run(process.execPath, ['--check', file], this.cfg.workspace);
    const toolCallId = this.log.callId();
    this.log.emit({ type: 'tool.call', toolCallId, kind: 'shell', command: `node --check ${file}`, exitCode: code, durationMs: Date.now() - started, filesTouched: [file] });
    this.context += TOKENS.shellBase;
  }

  /**
   * Walks steps in order (the sequential agent and every sub-agent do this):
   * after a step that completes a file (every step of `steps` in that file
   * is written), run the visible tests that import it, if everything they
   * import is written; when they fail, redo the last step once and run them
   * again. Otherwise, now and then, a syntax check.
   * Returns the files whose checks still fail.
   */
  async walk(steps: PlanStep[], shouldStop: () => boolean = () => false): Promise<Set<string>> {
    const failingFiles = new Set<string>();
    const done = new Set<string>();
    for (const step of steps) {
      if (shouldStop()) break;
      await this.doStep(step, 0);
      done.add(step.id);
      const fileComplete = steps.every((s) => s.file !== step.file || done.has(s.id));
      const checks = fileComplete ? this.checksFor(step.file).filter((c) => this.ready(c)) : [];
      if (checks.length > 0) {
        let result = await this.runChecks(checks);
        if (result.fail > 0) {
          await this.doStep(step, 1);
          result = await this.runChecks(checks);
        }
        if (result.fail > 0) failingFiles.add(step.file);
        else failingFiles.delete(step.file);
      } else if (this.decide('syntax-check', step.id) < 0.3) {
        await this.syntaxCheck(step.file);
      }
    }
    return failingFiles;
  }

  /** A seeded number in [0, 1) for a decision about this task (the same in every process and mode). */
  decide(...key: Array<string | number>): number {
    return roll(this.cfg.seed, this.plan.task, ...key);
  }

  /** The region of a step as it is in the workspace now. */
  currentBody(step: PlanStep): string | null {
    return regionBody(readText(join(this.cfg.workspace, step.file)), step.id);
  }

  close(): void {
    this.log.close();
  }
}

/** Whether a file still has a region left as the starter's TODO. */
export function hasTodo(text: string | null): boolean {
  return text === null || /\/\/ @step [a-z0-9-]+\n[ \t]*\/\/ TODO/.test(text);
}

/** Workspace files a file imports through relative specifiers, transitively (the file itself excluded). */
export function importClosure(workspace: string, file: string): string[] {
  const seen = new Set<string>();
  const visit = (from: string) => {
    const text = readText(join(workspace, from)) ?? '';
    for (const m of text.matchAll(/(?:from|import)\s+['"](\.\.?\/[^'"]+)['"]/g)) {
      const target = posix.normalize(posix.join(posix.dirname(from), m[1]));
      if (!seen.has(target)) {
        seen.add(target);
        visit(target);
      }
    }
  };
  visit(file);
  seen.delete(file);
  return [...seen].sort();
}

export function run(command: string, args: string[], cwd: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', () => {});
    child.on('error', () => resolve({ code: null, stdout }));
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

export function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}
