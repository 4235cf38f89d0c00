import { DomainException, ErrorCode } from '#libs/common';
import { Role, type Principal } from '#libs/identity';
import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { CurrentPrincipal, RequireRole } from '../../auth/auth.decorators.js';
import { DEFAULT_NDJSON_LIMITS, ExecutionImportService, ndjsonLines, type ImportSummary } from '#libs/campaigns';

const NDJSON_TYPES = new Set(['application/x-ndjson', 'application/ndjson', 'application/jsonl', 'application/x-jsonlines']);

/**
 * `POST /v1/campaigns/:id/import`: the streaming upload of execution records
 * (NDJSON). The body is read line by line as it arrives, never held whole:
 * Nest's body parsers only take application/json and forms, so this one is
 * left untouched for the handler.
 */
@Controller('v1/campaigns')
export class ImportController {
  constructor(private readonly imports: ExecutionImportService) {}

  @RequireRole(Role.MEMBER)
  @Post(':id/import')
  @HttpCode(200)
  importExecutions(@CurrentPrincipal() principal: Principal, @Param('id') campaignId: string, @Req() req: Request): Promise<ImportSummary> {
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (!NDJSON_TYPES.has(type)) {
      throw new DomainException(ErrorCode.BAD_USER_INPUT, `content-type: expected application/x-ndjson (one execution record per line), got ${type ? `"${type}"` : 'none'}`, 'content-type');
    }
    const length = Number(req.headers['content-length']);
    if (Number.isFinite(length) && length > DEFAULT_NDJSON_LIMITS.maxBytes) {
      throw new DomainException(
        ErrorCode.PAYLOAD_TOO_LARGE,
        `the upload is ${length} bytes, over the limit of ${DEFAULT_NDJSON_LIMITS.maxBytes}: split the file (importing is idempotent)`,
      );
    }
    return this.imports.importRecords(principal, campaignId, ndjsonLines(req));
  }
}
