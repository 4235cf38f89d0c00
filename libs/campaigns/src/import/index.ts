export * from './execution-import.service.js';
export * from './import-summary.js';
export { ndjsonLines, textLines, DEFAULT_NDJSON_LIMITS, type NdjsonLimits } from './ndjson-lines.js';
export { recordHash } from './record-columns.js';
export { executionToRecord } from './execution-record.mapper.js';
