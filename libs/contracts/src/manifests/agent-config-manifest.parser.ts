import { agentConfigManifestSchema, type AgentConfigManifest } from './agent-config-manifest.schema.js';
import { validateManifest, type ManifestResult } from './manifest-error.util.js';
import { canonicalJson } from './manifest-fingerprint.util.js';
import { parseYamlDocument } from './yaml-document.parser.js';

/** Parses and validates agent config YAML; errors carry YAML paths and lines. */
export function parseAgentConfigManifest(text: string): ManifestResult<AgentConfigManifest> {
  return parseYamlDocument(text, agentConfigManifestSchema);
}

/** Validates an agent config given as a plain object (e.g. GraphQL input). */
export function validateAgentConfigManifest(value: unknown): ManifestResult<AgentConfigManifest> {
  return validateManifest(value, agentConfigManifestSchema);
}

/** Canonical content of a parsed agent config: a changed fingerprint means a new config version. */
export function agentConfigFingerprint(manifest: AgentConfigManifest): string {
  return canonicalJson(manifest);
}
