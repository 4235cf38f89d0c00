import { describe, expect, it } from 'vitest';
import { GraderReportError } from './grader-report.error.js';
import { parseJunitReport } from './junit-report.parser.js';

/** What `node --test --test-reporter=junit` (Node 20) writes, stack traces shortened. */
const NODE_JUNIT = `<?xml version="1.0" encoding="utf-8"?>
<testsuites>
	<testsuite name="suite a" time="0.003244" disabled="0" errors="0" tests="5" failures="2" skipped="2" hostname="vm">
		<testcase name="passes" time="0.000458" classname="test"/>
		<testcase name="fails" time="0.000675" classname="test" failure="1 == 2">
			<failure type="testCodeFailure" message="1 == 2">
Error [ERR_TEST_FAILURE]: 1 == 2
      at TestContext.&lt;anonymous> (file:///tmp/a.test.mjs:5:30)
			</failure>
		</testcase>
		<testcase name="skipped" time="0.000074" classname="test">
			<skipped type="skipped" message="true"/>
		</testcase>
		<testcase name="todo" time="0.000103" classname="test" failure="x">
			<skipped type="todo" message="true"/>
			<failure type="testCodeFailure" message="x">[Error [ERR_TEST_FAILURE]: x]</failure>
		</testcase>
		<testsuite name="inner" time="0.001164" disabled="0" errors="0" tests="1" failures="0" skipped="0" hostname="vm">
			<testcase name="deep" time="0.001077" classname="test"/>
		</testsuite>
	</testsuite>
	<testcase name="top" time="0.000069" classname="test"/>
	<testsuite name="parent" time="0.000533" disabled="0" errors="0" tests="2" failures="0" skipped="0" hostname="vm">
		<testcase name="child1" time="0.000119" classname="test"/>
		<testcase name="child2" time="0.000112" classname="test"/>
	</testsuite>
	<!-- tests 9 -->
	<!-- pass 5 -->
</testsuites>
`;

describe('parseJunitReport', () => {
  it("reads Node's reporter: nested suites, cases under the root, skipped and todo not counted", () => {
    expect(parseJunitReport(NODE_JUNIT)).toEqual({ testsPassed: 5, testsTotal: 6, resolved: false });
  });

  it.each([
    ['a single <testsuite> root', '<testsuite name="s"><testcase name="a"/><testcase name="b"></testcase></testsuite>', 2, 2],
    ['an <error> fails like a <failure>', '<testsuites><testsuite><testcase name="a"><error message="boom"/></testcase><testcase name="b"/></testsuite></testsuites>', 1, 2],
    ['a failure with text and system-out', '<testsuite><testcase name="a"><failure>expected 1</failure><system-out>log</system-out></testcase></testsuite>', 0, 1],
    ['system-out alone does not fail', '<testsuite><testcase name="a"><system-out>log</system-out></testcase></testsuite>', 1, 1],
    ['suites nested three deep', '<testsuites><testsuite><testsuite><testsuite><testcase/><testcase><failure/></testcase></testsuite></testsuite></testsuite></testsuites>', 1, 2],
    ['several suites side by side', '<testsuites><testsuite><testcase/></testsuite><testsuite><testcase/></testsuite><testsuite/></testsuites>', 2, 2],
    ['an empty report', '<testsuites></testsuites>', 0, 0],
    ['only skipped cases', '<testsuite><testcase><skipped/></testcase></testsuite>', 0, 0],
    ['log lines before the document (graders printing to stdout)', 'running tests...\n<?xml version="1.0"?>\n<testsuite><testcase/></testsuite>\ndone\n', 1, 1],
    ['entities in names', '<testsuite><testcase name="a &amp; b &lt;c&gt;"/></testsuite>', 1, 1],
  ])('reads %s', (_name, xml, passed, total) => {
    expect(parseJunitReport(xml)).toEqual({ testsPassed: passed, testsTotal: total, resolved: total > 0 && passed === total });
  });

  it.each([
    ['', /expected JUnit XML with a <testsuites> or <testsuite> root element; received an empty report/],
    ['{"passed": 1}', /expected JUnit XML/],
    ['<testsuite><testcase></testsuite>', /expected well-formed XML, but line 1, column \d+: .*; received "<testsuite>/],
    ['<?xml version="1.0"?><results><test/></results>', /expected a <testsuites> or <testsuite> root element/],
  ])('rejects %j saying what was expected and received', (xml, message) => {
    expect(() => parseJunitReport(xml)).toThrow(GraderReportError);
    expect(() => parseJunitReport(xml)).toThrow(message);
  });
});
