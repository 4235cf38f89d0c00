import { describe, expect, it } from 'vitest';
import { GraderReportError } from './grader-report.error.js';
import { parseTapReport } from './tap-report.parser.js';

/**
 * What `node --test --test-reporter=tap` (Node 20) writes for a describe()
 * with a failing, a skipped, a todo and a nested suite, a plain top-level
 * test, and a test whose own body fails after its two subtests passed.
 * Node's own summary says pass 5, fail 2.
 */
const NODE_TAP = `TAP version 13
# Subtest: suite a
    # Subtest: passes
    ok 1 - passes
      ---
      duration_ms: 0.460677
      ...
    # Subtest: fails
    not ok 2 - fails
      ---
      duration_ms: 0.671001
      failureType: 'testCodeFailure'
      error: '1 == 2'
      stack: |-
        TestContext.<anonymous> (file:///tmp/a.test.mjs:5:30)
        Test.run (node:internal/test_runner/test:796:25)
      ...
    # Subtest: skipped
    ok 3 - skipped # SKIP
      ---
      duration_ms: 0.075272
      ...
    # Subtest: todo
    not ok 4 - todo # TODO
      ---
      duration_ms: 0.099148
      error: 'x'
      ...
    # Subtest: inner
        # Subtest: deep
        ok 1 - deep
          ---
          duration_ms: 1.022806
          ...
        1..1
    ok 5 - inner
      ---
      duration_ms: 1.109946
      type: 'suite'
      ...
    1..5
not ok 1 - suite a
  ---
  duration_ms: 3.225501
  type: 'suite'
  failureType: 'subtestsFailed'
  error: '1 subtest failed'
  ...
# Subtest: top
ok 2 - top
  ---
  duration_ms: 0.069744
  ...
# Subtest: parent
    # Subtest: child1
    ok 1 - child1
      ---
      duration_ms: 0.115472
      ...
    # Subtest: child2
    ok 2 - child2
      ---
      duration_ms: 0.128201
      ...
    1..2
not ok 3 - parent
  ---
  duration_ms: 0.626063
  failureType: 'testCodeFailure'
  error: 'parent fails'
  ...
1..3
# tests 9
# suites 2
# pass 5
# fail 2
# cancelled 0
# skipped 1
# todo 1
`;

const tally = (passed: number, total: number) => ({ testsPassed: passed, testsTotal: total, resolved: total > 0 && passed === total });

describe('parseTapReport', () => {
  it("counts the leaves of Node's nested output the way Node's summary does", () => {
    expect(parseTapReport(NODE_TAP)).toEqual(tally(5, 7));
  });

  it.each([
    ['a passing TAP 13 run', 'TAP version 13\n1..3\nok 1 - a\nok 2 - b\nok 3\n', 3, 3],
    ['the plan at the end', 'ok 1\nnot ok 2 - b\nok 3\n1..3\n', 2, 3],
    ['test points without numbers', '1..2\nok\nnot ok\n', 1, 2],
    ['SKIP and TODO directives, any case, not counted', '1..5\nok 1 # SKIP no db\nnot ok 2 # TODO later\nok 3 - a # skipped: slow\nnot ok 4 # todo\nok 5\n', 1, 1],
    ['an escaped hash is not a directive', '1..1\nnot ok 1 - issue \\# SKIP\n', 0, 1],
    ['missing results count as failed', '1..4\nok 1\nok 2\n', 2, 4],
    ['a 1..0 plan: nothing to count', 'TAP version 14\n1..0 # SKIP no tests here\n', 0, 0],
    ['a plan with a comment', '1..1 # one test\nok 1\n', 1, 1],
    ['non-TAP lines, CRLF and comments ignored', 'compiling...\r\n# Subtest: x\r\n1..1\r\nok 1 - x\r\nwarning: something\r\n', 1, 1],
    ['a passing suite with passing subtests counts the subtests only', '    1..2\n    ok 1\n    ok 2\nok 1 - suite\n1..1\n', 2, 2],
    ['a skipped suite is not counted, subtests included', '    1..1\n    not ok 1\nok 1 - suite # SKIP\nok 2\n1..2\n', 1, 1],
    ['a subtest plan with missing results', '    1..3\n    ok 1\nnot ok 1 - suite\n1..1\n', 1, 3],
    ['a failing suite with a failed subtest adds nothing', '    1..2\n    ok 1\n    not ok 2\nnot ok 1 - suite\n1..1\n', 1, 2],
    ['a failing suite whose subtests passed adds one failure', '    1..1\n    ok 1\nnot ok 1 - suite\n1..1\n', 1, 2],
    ['Bail out! counts the rest of the plan as failed', '1..4\nok 1\nBail out! database down\nok 3\n', 1, 4],
    ['Bail out! inside a subtest', '1..2\n    1..2\n    ok 1\n    Bail out!\nok 2\n', 1, 4],
    ['Bail out! before a plan fails one test', 'ok 1\nBail out!\n', 1, 2],
    ['a report cut short before its plan fails one test more', 'TAP version 13\nok 1\nok 2\n', 2, 3],
    ['a report cut short inside a subtest keeps what it counted', '# Subtest: s\n    ok 1\n    ok 2\n', 2, 3],
    ['TAP 14 buffered subtests', 'TAP version 14\nok 1 - suite {\n    1..2\n    ok 1\n    not ok 2\n}\nok 2 - leaf\n1..2\n', 2, 3],
    ['a buffered suite that failed by itself', '1..1\nnot ok 1 - suite {\n    1..1\n    ok 1\n}\n', 1, 2],
    ['a test point inside a YAML block is not a test', '1..1\nnot ok 1 - a\n  ---\n  message: |-\n    ok 2\n    not ok 3\n  ...\n', 0, 1],
  ])('reads %s', (_name, text, passed, total) => {
    expect(parseTapReport(text)).toEqual(tally(passed, total));
  });

  it.each([
    ['', /expected TAP.*found neither; received an empty report/],
    ['Error: Cannot find module tests/run.js\n', /expected TAP.*received "Error: Cannot find module/],
    ['TAP version 13\n', /expected TAP/],
  ])('rejects %j', (text, message) => {
    expect(() => parseTapReport(text)).toThrow(GraderReportError);
    expect(() => parseTapReport(text)).toThrow(message);
  });
});
