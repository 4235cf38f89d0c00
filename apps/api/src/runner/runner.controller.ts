import { DomainException, ErrorCode } from '#libs/common';
import { gradeSchema, heartbeatSchema, type EventBatchResult } from '#libs/contracts';
import { EventIngestService, GradeService, RunnerSessionService, authenticateRunner } from '#libs/engine';
import { Body, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import type { DataSource } from 'typeorm';
import type { z } from 'zod';
import { RunnerAuthenticated } from '../auth/auth.decorators.js';

/**
 * The runner protocol (docs/runner-protocol.md). Runners authenticate with
 * their execution-scoped token here, not with user credentials.
 */
@RunnerAuthenticated()
@Controller('v1/executions/:id')
export class RunnerController {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly session: RunnerSessionService,
    private readonly ingest: EventIngestService,
    private readonly grades: GradeService,
  ) {}

  @Get('spec')
  async spec(@Param('id') id: string, @Req() req: Request) {
    return this.session.spec(await this.runner(id, req));
  }

  @Post('events')
  @HttpCode(200)
  async events(@Param('id') id: string, @Req() req: Request, @Body() body: unknown): Promise<EventBatchResult> {
    const execution = await this.runner(id, req);
    if (typeof body !== 'string') {
      throw new DomainException(ErrorCode.BAD_USER_INPUT, 'body: expected NDJSON with content-type application/x-ndjson', 'body');
    }
    return this.ingest.ingest(execution, body.split('\n'));
  }

  @Post('heartbeat')
  @HttpCode(200)
  async heartbeat(@Param('id') id: string, @Req() req: Request, @Body() body: unknown) {
    return this.session.heartbeat(await this.runner(id, req), parse(heartbeatSchema, body));
  }

  @Post('grade')
  @HttpCode(200)
  async grade(@Param('id') id: string, @Req() req: Request, @Body() body: unknown) {
    return this.grades.record(await this.runner(id, req), parse(gradeSchema, body));
  }

  private runner(id: string, req: Request) {
    const header = req.header('authorization') ?? '';
    return authenticateRunner(this.dataSource, id, header.startsWith('Bearer ') ? header.slice(7) : undefined);
  }
}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const field = issue.path.join('.') || 'body';
    throw new DomainException(ErrorCode.BAD_USER_INPUT, `${field}: ${issue.message}`, field);
  }
  return result.data;
}
