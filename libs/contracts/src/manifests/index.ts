export { formatManifestErrors, formatManifestPath, validateManifest, type ManifestError, type ManifestResult } from './manifest-error.util.js';
export { parseYamlDocument } from './yaml-document.parser.js';
export { canonicalJson, manifestHash } from './manifest-fingerprint.util.js';
export {
  commandSchema,
  difficultySchema,
  ENV_NAME_PATTERN,
  envSchema,
  imageSchema,
  SLUG_PATTERN,
  slugSchema,
  versionSchema,
  visibilitySchema,
} from './manifest-fields.schema.js';
export * from './benchmark-manifest.schema.js';
export * from './benchmark-manifest.parser.js';
export * from './agent-config-manifest.schema.js';
export * from './agent-config-manifest.parser.js';
export * from './campaign-manifest.schema.js';
export * from './campaign-manifest.parser.js';
