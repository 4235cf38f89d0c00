import { benchmarkManifestSchema, type BenchmarkManifest } from './benchmark-manifest.schema.js';
import { validateManifest, type ManifestResult } from './manifest-error.util.js';
import { canonicalJson } from './manifest-fingerprint.util.js';
import { parseYamlDocument } from './yaml-document.parser.js';

/** Parses and validates benchmark manifest YAML; errors carry YAML paths and lines. */
export function parseBenchmarkManifest(text: string): ManifestResult<BenchmarkManifest> {
  return parseYamlDocument(text, benchmarkManifestSchema);
}

/** Validates a benchmark manifest given as a plain object (e.g. GraphQL input). */
export function validateBenchmarkManifest(value: unknown): ManifestResult<BenchmarkManifest> {
  return validateManifest(value, benchmarkManifestSchema);
}

/**
 * Canonical content of a parsed manifest (defaults applied, keys sorted):
 * equal for the same content, so re-registering an unchanged manifest can
 * keep its version. Hash it with `manifestHash` to store it.
 */
export function benchmarkFingerprint(manifest: BenchmarkManifest): string {
  return canonicalJson(manifest);
}
