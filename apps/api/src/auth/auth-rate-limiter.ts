import { DomainException, ErrorCode } from '#libs/common';
import { APP_CONFIG, type AppConfig } from '#libs/config';
import { Inject, Injectable } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/**
 * Limits password attempts (per IP and per email) and failed credential
 * checks (per IP). In memory, per API process: with N replicas an attacker
 * gets N times the budget, which still bounds guessing.
 */
@Injectable()
export class AuthRateLimiter {
  private readonly perIp: RateLimiterMemory;
  private readonly perEmail: RateLimiterMemory;
  private readonly signUps: RateLimiterMemory;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.perIp = new RateLimiterMemory({ keyPrefix: 'ip', points: config.authRateLimitPerMinute, duration: 60 });
    this.perEmail = new RateLimiterMemory({ keyPrefix: 'email', points: config.authRateLimitPerMinute, duration: 60 });
    this.signUps = new RateLimiterMemory({ keyPrefix: 'signup', points: config.authRateLimitPerMinute, duration: 60 });
  }

  /** Throws RATE_LIMITED when this IP (or email) has used its attempts. */
  async assertAllowed(ip: string, email?: string): Promise<void> {
    const checks = [this.perIp.get(ip), email ? this.perEmail.get(email.toLowerCase()) : null];
    for (const res of await Promise.all(checks)) {
      if (res && res.remainingPoints <= 0) this.reject(res);
    }
  }

  async recordFailure(ip: string, email?: string): Promise<void> {
    await Promise.all([this.perIp.penalty(ip, 1), email ? this.perEmail.penalty(email.toLowerCase(), 1) : null]);
  }

  /** Every sign-up counts, successful or not, in a budget of its own. */
  async consumeSignUp(ip: string): Promise<void> {
    try {
      await this.signUps.consume(ip);
    } catch (res) {
      if (res instanceof RateLimiterRes) this.reject(res);
      throw res;
    }
  }

  private reject(res: RateLimiterRes): never {
    const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    throw new DomainException(ErrorCode.RATE_LIMITED, `too many authentication attempts; retry in ${seconds} s`);
  }
}
