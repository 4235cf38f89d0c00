import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { GraderReportError, graderResult, type GraderResult } from './grader-report.error.js';

type XmlNode = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: true,
  // Only element structure matters; entities in names and messages are not worth expanding.
  processEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (name) => name === 'testsuites' || name === 'testsuite' || name === 'testcase',
});

/** Where the XML document starts: graders often print a line or two before it on stdout. */
const DOCUMENT_START = /<\?xml|<testsuites[\s>/]|<testsuite[\s>/]/;

/**
 * Reads a JUnit XML report. A `<testcase>` with a `<failure>` or `<error>`
 * element fails; one with `<skipped>` is not counted, even when it also has a
 * failure (Node's reporter writes a failing `todo` test that way); every other
 * test case passes. Test cases are counted at any depth of nested
 * `<testsuites>`/`<testsuite>` elements, including directly under the root.
 */
export function parseJunitReport(xml: string): GraderResult {
  const start = xml.search(DOCUMENT_START);
  if (start < 0) throw new GraderReportError('junit', 'expected JUnit XML with a <testsuites> or <testsuite> root element', xml);
  const end = xml.lastIndexOf('>');
  const doc = xml.slice(start, end + 1);
  const valid = XMLValidator.validate(doc);
  if (valid !== true) {
    const { msg, line, col } = valid.err;
    throw new GraderReportError('junit', `expected well-formed XML, but line ${line}, column ${col}: ${msg}`, doc);
  }
  const root = parser.parse(doc) as XmlNode;
  const suites = [...asArray(root.testsuites), ...asArray(root.testsuite)];
  if (suites.length === 0) throw new GraderReportError('junit', 'expected a <testsuites> or <testsuite> root element', doc);
  const tally = { passed: 0, total: 0 };
  for (const suite of suites) countSuite(suite, tally);
  return graderResult(tally.passed, tally.total);
}

function countSuite(suite: unknown, tally: { passed: number; total: number }): void {
  if (!isNode(suite)) return; // an empty <testsuite/> parses as ''
  for (const testcase of asArray(suite.testcase)) {
    if (isNode(testcase) && 'skipped' in testcase) continue;
    tally.total++;
    if (!isNode(testcase) || !('failure' in testcase || 'error' in testcase)) tally.passed++;
  }
  for (const nested of [...asArray(suite.testsuites), ...asArray(suite.testsuite)]) countSuite(nested, tally);
}

function asArray(value: unknown): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function isNode(value: unknown): value is XmlNode {
  return typeof value === 'object' && value !== null;
}
