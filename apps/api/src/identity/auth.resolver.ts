import { APP_CONFIG, type AppConfig } from '#libs/config';
import { AccountService, ApiKeyService, type AuthResult, type Principal } from '#libs/identity';
import { Inject } from '@nestjs/common';
import { Args, Context, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { AuthRateLimiter } from '../auth/auth-rate-limiter.js';
import { CurrentPrincipal, Public } from '../auth/auth.decorators.js';
import type { GraphqlContext } from '../graphql/loaders.js';
import { LoginInput, SignUpInput } from './inputs/identity.inputs.js';
import { AuthPayload, CredentialKind, Viewer } from './models/identity.models.js';

@Resolver()
export class AuthResolver {
  constructor(
    private readonly accounts: AccountService,
    private readonly keys: ApiKeyService,
    private readonly limiter: AuthRateLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Public()
  @Mutation(() => AuthPayload, { description: 'Creates a user and a personal organization they own; returns a session.' })
  async signUp(@Args('input') input: SignUpInput, @Context() ctx: GraphqlContext): Promise<AuthResult> {
    await this.limiter.consumeSignUp(ctx.req.ip ?? 'unknown');
    return this.accounts.signUp(input, this.config.accessTokenTtlSeconds);
  }

  @Public()
  @Mutation(() => AuthPayload, { description: 'Email and password; failures never say which was wrong.' })
  async login(@Args('input') input: LoginInput, @Context() ctx: GraphqlContext): Promise<AuthResult> {
    const ip = ctx.req.ip ?? 'unknown';
    await this.limiter.assertAllowed(ip, input.email);
    try {
      return await this.accounts.login(input.email, input.password, this.config.accessTokenTtlSeconds);
    } catch (err) {
      await this.limiter.recordFailure(ip, input.email);
      throw err;
    }
  }

  @Mutation(() => Boolean, { description: 'Ends the current web session; its token stops working at once.' })
  logout(@CurrentPrincipal() principal: Principal): Promise<boolean> {
    return this.accounts.logout(principal);
  }

  @Mutation(() => AuthPayload, { description: 'Moves the current session to another organization you belong to.' })
  switchOrganization(@CurrentPrincipal() principal: Principal, @Args('id', { type: () => ID }) id: string): Promise<AuthResult> {
    return this.accounts.switchOrganization(principal, id);
  }

  @Query(() => Viewer)
  async me(@CurrentPrincipal() principal: Principal, @Context() ctx: GraphqlContext): Promise<Viewer> {
    const [user, organization, apiKey] = await Promise.all([
      principal.userId ? ctx.loaders.user.load(principal.userId) : null,
      ctx.loaders.organization.load(principal.orgId),
      principal.apiKeyId ? this.keys.getOwn(principal) : null,
    ]);
    return {
      kind: principal.kind === 'user' ? CredentialKind.USER : CredentialKind.API_KEY,
      user,
      organization: organization!,
      role: principal.role,
      apiKey,
    };
  }
}
