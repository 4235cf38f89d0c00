import { ApiKeyService, AccountService, looksLikeApiKey, type Principal } from '#libs/identity';
import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import { ExtractJwt, Strategy as JwtStrategy } from 'passport-jwt';

export const JWT_SECRET = Symbol('JWT_SECRET');

/** `Authorization: Bearer fo_<prefix>_<secret>`: programs and CI. */
@Injectable()
export class ApiKeyStrategy extends PassportStrategy(BearerStrategy, 'api-key') {
  constructor(private readonly keys: ApiKeyService) {
    super();
  }

  async validate(token: string): Promise<Principal | false> {
    if (!looksLikeApiKey(token)) return false;
    return (await this.keys.authenticate(token)) ?? false;
  }
}

/** `Authorization: Bearer <JWT>`: web sessions. The session row decides, so logout is immediate. */
@Injectable()
export class SessionStrategy extends PassportStrategy(JwtStrategy, 'jwt') {
  constructor(
    private readonly accounts: AccountService,
    @Inject(JWT_SECRET) jwtSecret: string,
  ) {
    super({ jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(), secretOrKey: jwtSecret, algorithms: ['HS256'], ignoreExpiration: false });
  }

  async validate(payload: { sub?: string; sid?: string }): Promise<Principal | false> {
    if (!payload.sub || !payload.sid) return false;
    return (await this.accounts.principalForSession(payload.sid, payload.sub)) ?? false;
  }
}
