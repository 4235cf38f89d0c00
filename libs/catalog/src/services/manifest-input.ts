import { DomainException, ErrorCode } from '#libs/common';
import { formatManifestErrors, type ManifestResult } from '#libs/contracts';

export interface ManifestSource {
  /** YAML text (errors then carry line numbers). */
  yaml?: string | null;
  /** The same manifest as a JSON object. */
  manifest?: Record<string, unknown> | null;
}

/**
 * Parses a manifest given as YAML or JSON; every problem is reported at
 * once, as `path: expected ..., got ...` lines, in one BAD_USER_INPUT.
 */
export function readManifest<T>(
  kind: string,
  source: ManifestSource,
  parse: (text: string) => ManifestResult<T>,
  validate: (value: unknown) => ManifestResult<T>,
): T {
  const given = [source.yaml != null, source.manifest != null].filter(Boolean).length;
  if (given !== 1) throw DomainException.badInput('input', `exactly one of yaml or manifest`);
  const result = source.yaml != null ? parse(source.yaml) : validate(source.manifest);
  if (!result.ok) {
    const count = result.errors.length;
    throw new DomainException(
      ErrorCode.BAD_USER_INPUT,
      `${kind} has ${count} error${count === 1 ? '' : 's'}:\n${formatManifestErrors(result.errors)}`,
      result.errors[0]?.path,
    );
  }
  return result.value;
}
