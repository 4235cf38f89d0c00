import { campaignManifestSchema, type CampaignManifest } from './campaign-manifest.schema.js';
import { validateManifest, type ManifestResult } from './manifest-error.util.js';
import { canonicalJson } from './manifest-fingerprint.util.js';
import { parseYamlDocument } from './yaml-document.parser.js';

/** Parses and validates campaign YAML; errors carry YAML paths and lines. */
export function parseCampaignManifest(text: string): ManifestResult<CampaignManifest> {
  return parseYamlDocument(text, campaignManifestSchema);
}

/** Validates a campaign given as a plain object (e.g. GraphQL input). */
export function validateCampaignManifest(value: unknown): ManifestResult<CampaignManifest> {
  return validateManifest(value, campaignManifestSchema);
}

/** Canonical content of a parsed campaign (defaults applied, keys sorted). */
export function campaignFingerprint(manifest: CampaignManifest): string {
  return canonicalJson(manifest);
}
