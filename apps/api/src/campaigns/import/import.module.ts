import { Module } from '@nestjs/common';
import { ExecutionImportService } from '#libs/campaigns';
import { ImportController } from './import.controller.js';
import { ImportResolver } from './import.resolver.js';

/** The resolvers of this module, for the schema printer (apps/api/src/print-schema.ts builds schema.gql from a list). */
export const IMPORT_RESOLVERS = [ImportResolver];

/** Import of execution records into a campaign (REST streaming upload + GraphQL). */
@Module({
  controllers: [ImportController],
  providers: [ExecutionImportService, ...IMPORT_RESOLVERS],
})
export class ImportModule {}
