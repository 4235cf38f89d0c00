import { StripeWebhookService } from '#libs/billing';
import { Controller, Headers, HttpCode, Post, Req, type RawBodyRequest } from '@nestjs/common';
import type { Request } from 'express';
import { Public } from '../auth/auth.decorators.js';

/**
 * Stripe's webhook endpoint. Stripe holds no Fanout credential: the
 * signature over the raw body (bootstrap.ts keeps it: rawBody) is the
 * authentication. 400 for a bad or missing signature, 404 when Stripe is off.
 */
@Public()
@Controller('v1/stripe')
export class StripeWebhookController {
  constructor(private readonly webhooks: StripeWebhookService) {}

  @Post('webhook')
  @HttpCode(200)
  async receive(@Req() req: RawBodyRequest<Request>, @Headers('stripe-signature') signature: string | undefined) {
    const result = await this.webhooks.receive(req.rawBody, signature);
    return { received: true, ...result };
  }
}
