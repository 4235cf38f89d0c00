import { DomainException, ErrorCode } from '#libs/common';
import { Role, type Principal } from '#libs/identity';
import { Args, ID, Mutation, Resolver } from '@nestjs/graphql';
import { CurrentPrincipal, RequireRole } from '../../auth/auth.decorators.js';
import { ExecutionImportService, textLines } from '#libs/campaigns';
import { ImportResult } from './import.models.js';

/** GraphQL carries the whole file in one string: fine for small imports; the REST upload streams any size. */
export const MAX_GRAPHQL_IMPORT_BYTES = 5 * 1024 * 1024;

@Resolver(() => ImportResult)
export class ImportResolver {
  constructor(private readonly imports: ExecutionImportService) {}

  @RequireRole(Role.MEMBER)
  @Mutation(() => ImportResult, {
    description:
      'Fills the campaign\'s planned executions from execution records (JSONL, docs/formats.md), up to 5 MB. Idempotent per agent + mode + task + repetition; bad lines are reported and skipped. Larger files: `fanout import` or POST /v1/campaigns/{id}/import.',
  })
  async importExecutions(
    @CurrentPrincipal() principal: Principal,
    @Args('campaignId', { type: () => ID }) campaignId: string,
    @Args('jsonl', { description: 'Execution records, one JSON object per line.' }) jsonl: string,
  ): Promise<ImportResult> {
    const bytes = Buffer.byteLength(jsonl);
    if (bytes > MAX_GRAPHQL_IMPORT_BYTES) {
      throw new DomainException(
        ErrorCode.BAD_USER_INPUT,
        `jsonl: expected at most ${MAX_GRAPHQL_IMPORT_BYTES} bytes (5 MB), got ${bytes}; upload larger files with \`fanout import\` or POST /v1/campaigns/${campaignId}/import`,
        'jsonl',
      );
    }
    return this.imports.importRecords(principal, campaignId, textLines(jsonl));
  }
}
