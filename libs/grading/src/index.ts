export * from './grader-report.error.js';
export * from './grader-report.parser.js';
export * from './json-report.parser.js';
export * from './junit-report.parser.js';
export * from './tap-report.parser.js';
