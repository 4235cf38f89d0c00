import { CampaignService, exportCampaignRecords } from '#libs/campaigns';
import type { Principal } from '#libs/identity';
import { Controller, Get, Param, Res } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import type { DataSource } from 'typeorm';
import { CurrentPrincipal, Public } from '../auth/auth.decorators.js';

/** `GET /v1/campaigns/:id/export`: the campaign's execution records as JSONL (own campaigns, and public ones). */
@Public()
@Controller('v1/campaigns/:id')
export class CampaignExportController {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly campaigns: CampaignService,
  ) {}

  @Get('export')
  async export(@Param('id') id: string, @CurrentPrincipal() principal: Principal | undefined, @Res() res: Response): Promise<void> {
    const campaign = await this.campaigns.getVisible(principal ?? null, id);
    res.status(200).type('application/x-ndjson');
    res.setHeader('content-disposition', `attachment; filename="campaign-${campaign.id}.jsonl"`);
    for await (const record of exportCampaignRecords(this.dataSource, campaign.id)) {
      if (!res.write(`${JSON.stringify(record)}\n`)) await new Promise((resolve) => res.once('drain', resolve));
    }
    res.end();
  }
}
