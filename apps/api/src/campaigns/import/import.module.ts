import { Module } from '@nestjs/common';

/** Import of execution records into a campaign (REST streaming upload + GraphQL). */
@Module({})
export class ImportModule {}
