import { Field, GraphQLISODateTime, Int, ObjectType } from '@nestjs/graphql';

@ObjectType('BillingStatus', { description: "The organization's Stripe billing state (docs/billing.md)." })
export class BillingStatusModel {
  @Field({ description: 'Stripe billing is on for this server (STRIPE_SECRET_KEY is set).' })
  enabled: boolean;

  @Field({ description: 'A Stripe customer exists for the organization (created when its first hour of spend is reported).' })
  hasCustomer: boolean;

  @Field({ description: 'An invoice payment failed: no campaign may be launched until it is paid.' })
  hold: boolean;

  @Field(() => String, { nullable: true, description: "The subscription's plan, from Stripe." })
  plan: string | null;

  @Field(() => Int, { description: 'Closed hours of spend not yet reported to Stripe.' })
  pendingHours: number;

  @Field(() => Int, { description: 'Hours Stripe kept refusing; an operator must look (docs/billing.md).' })
  failedHours: number;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Start of the newest hour of spend Stripe has.' })
  lastDeliveredHour: Date | null;
}
