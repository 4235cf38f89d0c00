import { ApiKeyService, Role, type Principal } from '#libs/identity';
import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { CurrentPrincipal, RequireRole } from '../auth/auth.decorators.js';
import { PageArgs, pagedComplexity } from '../graphql/page.args.js';
import { CreateApiKeyInput } from './inputs/identity.inputs.js';
import { ApiKey, ApiKeyConnection, CreatedApiKey } from './models/identity.models.js';

@Resolver(() => ApiKey)
export class ApiKeyResolver {
  constructor(private readonly keys: ApiKeyService) {}

  @RequireRole(Role.ADMIN)
  @Mutation(() => CreatedApiKey, { description: 'A key for the current organization. The key is in the answer once; only its hash is stored.' })
  async createApiKey(@CurrentPrincipal() principal: Principal, @Args('input') input: CreateApiKeyInput): Promise<CreatedApiKey> {
    const { apiKey, token } = await this.keys.create(principal, input);
    return { apiKey, key: token };
  }

  @RequireRole(Role.ADMIN)
  @Mutation(() => ApiKey, { description: 'Stops a key at once. Revoking twice is harmless.' })
  revokeApiKey(@CurrentPrincipal() principal: Principal, @Args('id', { type: () => ID }) id: string) {
    return this.keys.revoke(principal, id);
  }

  @RequireRole(Role.ADMIN)
  @Query(() => ApiKeyConnection, { complexity: pagedComplexity, description: 'Keys of the current organization, revoked ones included.' })
  apiKeys(@CurrentPrincipal() principal: Principal, @Args() page: PageArgs) {
    return this.keys.list(principal, page);
  }
}
