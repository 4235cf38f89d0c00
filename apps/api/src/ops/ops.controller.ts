import { migrationsApplied } from '#libs/database';
import { Controller, Get, Header, HttpCode, Res } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import type { DataSource } from 'typeorm';
import { Public } from '../auth/auth.decorators.js';
import { HttpMetrics } from './http-metrics.js';

@Public()
@Controller()
export class OpsController {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly metrics: HttpMetrics,
  ) {}

  /** The process is up. */
  @Get('healthz')
  @HttpCode(200)
  healthz() {
    return { status: 'ok' };
  }

  /** The database answers and every migration this build knows is applied. */
  @Get('readyz')
  async readyz(@Res() res: Response) {
    try {
      await this.dataSource.query('SELECT 1');
      if (!(await migrationsApplied(this.dataSource))) {
        return res.status(503).json({ status: 'not ready', reason: 'pending migrations: run `fanout db migrate`' });
      }
      return res.status(200).json({ status: 'ready' });
    } catch (err) {
      return res.status(503).json({ status: 'not ready', reason: `database unreachable: ${(err as Error).message}` });
    }
  }

  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4')
  async prometheus() {
    return this.metrics.registry.metrics();
  }
}
