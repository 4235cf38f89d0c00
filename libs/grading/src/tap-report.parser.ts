import { GraderReportError, graderResult, type GraderResult } from './grader-report.error.js';

/**
 * Reads a TAP 13/14 report, including the indented subtests of TAP 14 and
 * of `node --test --test-reporter=tap`:
 *
 * - Leaf test points count; a test point that closes a block of indented
 *   subtests (or opens a TAP 14 buffered one: `ok 1 - name {` ... `}`) is a
 *   suite and its subtests count instead. A suite that is
 *   `not ok` although none of its counted subtests failed (a failing hook,
 *   or the parent test's own assertion) adds one failed test, so the run
 *   cannot pass as resolved.
 * - `# SKIP` and `# TODO` test points are not counted; a suite with either
 *   directive is not counted at all, subtests included.
 * - A `1..N` plan with fewer results counts the missing ones as failed, at
 *   every level.
 * - `Bail out!` ends the report: what the plans still expected counts as
 *   failed, and at least one test fails.
 * - A report with test points but no top-level plan was cut short (the
 *   grader was killed): one more test counts as failed.
 * - A report with neither test points nor a plan is not TAP: it throws.
 * - YAML diagnostic blocks and any other lines are ignored.
 */
export function parseTapReport(text: string): GraderResult {
  const levels: Level[] = [];
  const level = (depth: number): Level => {
    for (let d = levels.length; d <= depth; d++) levels.push(newLevel());
    return levels[depth]!;
  };
  let yamlEnd: string | null = null;
  let lastPointIndent = -1;
  let bailedOut = false;
  let sawTap = false;
  const buffered = new Map<number, { ok: boolean; directive: boolean }>();

  /** Counts a test point at `depth`: a leaf, or the suite that closes the block of subtests indented under it. */
  const closePoint = (depth: number, ok: boolean, directive: boolean) => {
    foldDeeperThan(levels, depth + 1);
    const here = level(depth);
    here.results++;
    const children = levels[depth + 1];
    levels.length = depth + 1;
    if (children && (children.results > 0 || children.plan !== null)) {
      if (directive) return;
      const sub = finish(children);
      here.passed += sub.passed;
      here.total += sub.total;
      if (!ok && sub.passed === sub.total) here.total++;
    } else if (!directive) {
      here.total++;
      if (ok) here.passed++;
    }
  };

  for (const raw of text.split(/\r?\n/)) {
    if (yamlEnd !== null) {
      if (raw.trimEnd() === yamlEnd) yamlEnd = null;
      continue;
    }
    const indent = raw.length - raw.trimStart().length;
    const line = raw.trim();
    if (lastPointIndent >= 0 && line === '---' && indent === lastPointIndent + 2) {
      yamlEnd = `${' '.repeat(indent)}...`;
      lastPointIndent = -1;
      continue;
    }
    lastPointIndent = -1;
    if (indent % 4 !== 0 || raw.slice(0, indent).includes('\t')) continue;
    const depth = indent / 4;

    if (BAIL_OUT.test(line)) {
      bailedOut = true;
      sawTap = true;
      break;
    }
    const plan = PLAN.exec(line);
    if (plan) {
      level(depth).plan = Number(plan[1]);
      sawTap = true;
      continue;
    }
    if (line === '}' && buffered.has(depth)) {
      const { ok, directive } = buffered.get(depth)!;
      buffered.delete(depth);
      closePoint(depth, ok, directive);
      continue;
    }
    const point = TEST_POINT.exec(line);
    if (!point) continue;
    sawTap = true;
    lastPointIndent = indent;
    const ok = point[1] === undefined;
    const directive = hasDirective(point[2] ?? '');
    if (BUFFERED_OPEN.test(point[2] ?? '')) {
      // TAP 14 buffered subtest: `ok 1 - name {`, its subtests indented, then `}`.
      foldDeeperThan(levels, depth);
      buffered.set(depth, { ok, directive });
      continue;
    }
    closePoint(depth, ok, directive);
  }

  if (!sawTap) throw new GraderReportError('tap', 'expected TAP: "ok N" / "not ok N" test points and a "1..N" plan, found neither', text);
  foldDeeperThan(levels, 0);
  const top = levels[0] ?? newLevel();
  let { passed, total } = finish(top);
  if (top.plan === null && !bailedOut) total++;
  else if (bailedOut && passed === total) total++;
  return graderResult(passed, total);
}

/**
 * Blocks deeper than `depth` whose suite line never came were cut short
 * (bail out, a truncated report, or broken nesting): their tallies go to the
 * level above so that nothing they counted is lost.
 */
function foldDeeperThan(levels: Level[], depth: number): void {
  for (let d = levels.length - 1; d > depth; d--) {
    const sub = finish(levels[d]!);
    levels[d - 1]!.passed += sub.passed;
    levels[d - 1]!.total += sub.total;
  }
  if (levels.length > depth + 1) levels.length = depth + 1;
}

interface Level {
  /** Test points seen at this level, counted or not: what the plan is checked against. */
  results: number;
  plan: number | null;
  passed: number;
  total: number;
}

const newLevel = (): Level => ({ results: 0, plan: null, passed: 0, total: 0 });

/** The level's tally with the results its plan announced but never came counted as failed. */
function finish(level: Level): { passed: number; total: number } {
  const missing = level.plan === null ? 0 : Math.max(0, level.plan - level.results);
  return { passed: level.passed, total: level.total + missing };
}

const TEST_POINT = /^(not )?ok\b(.*)$/;
const PLAN = /^1\.\.(\d+)(?:\s*#.*)?$/;
const BAIL_OUT = /^Bail out!/i;
const BUFFERED_OPEN = /\{\s*$/;
/** `# SKIP` / `# TODO`, case-insensitive, after an unescaped `#` (`\#` is a literal hash in a description). */
const DIRECTIVE = /(?:^|[^\\])#\s*(?:skip\S*|todo)\b/i;

function hasDirective(rest: string): boolean {
  return DIRECTIVE.test(rest);
}
