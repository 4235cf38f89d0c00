export * from './execution-record.schema.js';
export * from './execution-record.parser.js';
export * from './execution-record.mapper.js';
export { isoToEpochMs } from './iso-time.util.js';
export * from './manifests/index.js';
export * from './runner/index.js';
