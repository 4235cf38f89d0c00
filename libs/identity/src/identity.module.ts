import { Clock, SystemClock } from '#libs/common';
import { Module, type DynamicModule } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { AccountService } from './services/account.service.js';
import { ApiKeyService } from './services/api-key.service.js';
import { ApiKeyRepository, InvitationRepository, MembershipRepository } from './services/identity.repositories.js';
import { OrganizationService } from './services/organization.service.js';

/**
 * Users, organizations, memberships, API keys and sessions. Needs TypeORM's
 * root module and a JwtModule in the importing app.
 */
@Module({})
export class IdentityModule {
  static register(options: { jwtSecret: string }): DynamicModule {
    return {
      module: IdentityModule,
      imports: [JwtModule.register({ secret: options.jwtSecret, signOptions: { algorithm: 'HS256' }, verifyOptions: { algorithms: ['HS256'] } })],
      providers: [
    { provide: Clock, useClass: SystemClock },
    MembershipRepository,
    ApiKeyRepository,
    InvitationRepository,
    OrganizationService,
    ApiKeyService,
    AccountService,
  ],
      exports: [Clock, OrganizationService, ApiKeyService, AccountService],
    };
  }
}
