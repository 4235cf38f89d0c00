import { Clock, DomainException, ErrorCode } from '#libs/common';
import { isUuid } from '#libs/database';
import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { IsNull, type DataSource, type EntityManager } from 'typeorm';
import { InvitationEntity, MembershipEntity, OrganizationEntity, SessionEntity, UserEntity } from '../entities/index.js';
import type { Principal } from '../principal.js';
import { Role } from '../role.js';
import { normaliseEmail, requireUser } from './access.js';
import { OrganizationService } from './organization.service.js';
import { hashPassword, verifyPassword } from './password.hasher.js';

export interface SignUpInput {
  email: string;
  password: string;
  name: string;
}

export interface AuthResult {
  accessToken: string;
  expiresAt: Date;
  user: UserEntity;
  organization: OrganizationEntity;
  role: Role;
}


const BAD_LOGIN = 'invalid email or password';

@Injectable()
export class AccountService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly jwt: JwtService,
    private readonly clock: Clock,
    private readonly organizations: OrganizationService,
  ) {}

  /** Creates the user and a personal org they own, and claims open invitations to the email. */
  async signUp(input: SignUpInput, ttlSeconds: number): Promise<AuthResult> {
    const email = normaliseEmail(input.email);
    const passwordHash = await hashPassword(input.password);
    return this.dataSource.transaction(async (tx) => {
      const user = await this.createUser(tx, email, input.name, passwordHash);
      const organization = await this.organizations.createPersonal(tx, user);
      await this.claimInvitations(tx, user);
      return this.openSession(tx, user, organization, Role.OWNER, ttlSeconds);
    });
  }

  /** For operators (`fanout user create`): a user with no org of their own. */
  async createUserWithPassword(email: string, name: string, password: string): Promise<UserEntity> {
    const passwordHash = await hashPassword(password);
    return this.dataSource.transaction(async (tx) => {
      const user = await this.createUser(tx, normaliseEmail(email), name, passwordHash);
      await this.claimInvitations(tx, user);
      return user;
    });
  }

  async login(emailInput: string, password: string, ttlSeconds: number): Promise<AuthResult> {
    const email = normaliseEmail(emailInput);
    const user = await this.dataSource.getRepository(UserEntity).findOneBy({ email });
    const ok = await verifyPassword(password, user?.passwordHash ?? null);
    if (!user || !ok) throw new DomainException(ErrorCode.UNAUTHENTICATED, BAD_LOGIN);
    return this.dataSource.transaction(async (tx) => {
      let membership = await tx.getRepository(MembershipEntity).findOne({
        where: { userId: user.id },
        order: { createdAt: 'ASC' },
        relations: { organization: true },
      });
      if (!membership) {
        // Removed from every org: give them a fresh personal one rather than a dead end.
        const organization = await this.organizations.createPersonal(tx, user);
        return this.openSession(tx, user, organization, Role.OWNER, ttlSeconds);
      }
      return this.openSession(tx, user, membership.organization!, membership.role, ttlSeconds);
    });
  }

  async logout(principal: Principal): Promise<boolean> {
    if (!principal.sessionId) return false;
    const result = await this.dataSource
      .getRepository(SessionEntity)
      .update({ id: principal.sessionId, revokedAt: IsNull() }, { revokedAt: this.clock.now() });
    return (result.affected ?? 0) > 0;
  }

  /** Moves the session to another org the user belongs to; the new token carries the same session. */
  async switchOrganization(principal: Principal, orgId: string): Promise<AuthResult> {
    const userId = requireUser(principal, 'switchOrganization');
    return this.dataSource.transaction(async (tx) => {
      const membership = isUuid(orgId)
        ? await tx.getRepository(MembershipEntity).findOne({ where: { orgId, userId }, relations: { organization: true, user: true } })
        : null;
      if (!membership) throw DomainException.notFound('organization', orgId);
      const session = await tx.getRepository(SessionEntity).findOneByOrFail({ id: principal.sessionId! });
      await tx.getRepository(SessionEntity).update({ id: session.id }, { orgId });
      return {
        accessToken: await this.sign(userId, session.id, session.expiresAt),
        expiresAt: session.expiresAt,
        user: membership.user!,
        organization: membership.organization!,
        role: membership.role,
      };
    });
  }

  /** Resolves a verified JWT's session to a principal; null when revoked, expired or no longer a member. */
  async principalForSession(sessionId: string, userId: string): Promise<Principal | null> {
    if (!isUuid(sessionId) || !isUuid(userId)) return null;
    const rows: { org_id: string; role: Role; platform_admin: boolean }[] = await this.dataSource.query(
      `SELECT s.org_id, m.role, u.platform_admin FROM sessions s
         JOIN memberships m ON m.org_id = s.org_id AND m.user_id = s.user_id
         JOIN users u ON u.id = s.user_id
        WHERE s.id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL AND s.expires_at > $3`,
      [sessionId, userId, this.clock.now()],
    );
    const row = rows[0];
    return row ? { kind: 'user', orgId: row.org_id, role: row.role, userId, apiKeyId: null, sessionId, platformAdmin: row.platform_admin === true } : null;
  }

  userById(id: string): Promise<UserEntity | null> {
    return this.dataSource.getRepository(UserEntity).findOneBy({ id });
  }

  async hasAnyUser(): Promise<boolean> {
    return (await this.dataSource.getRepository(UserEntity).count({ take: 1 })) > 0;
  }

  private async createUser(tx: EntityManager, email: string, name: string, passwordHash: string): Promise<UserEntity> {
    const users = tx.getRepository(UserEntity);
    if (await users.existsBy({ email })) {
      throw new DomainException(ErrorCode.CONFLICT, 'email: an account with this email already exists', 'email');
    }
    return users.save(users.create({ id: randomUUID(), email, name: name.trim(), passwordHash }));
  }

  private async claimInvitations(tx: EntityManager, user: UserEntity): Promise<void> {
    const open = await tx.getRepository(InvitationEntity).findBy({ email: user.email, acceptedAt: IsNull() });
    for (const invitation of open) {
      await tx
        .createQueryBuilder()
        .insert()
        .into(MembershipEntity)
        .values({ id: randomUUID(), orgId: invitation.orgId, userId: user.id, role: invitation.role })
        .orIgnore()
        .execute();
      await tx.getRepository(InvitationEntity).update({ id: invitation.id }, { acceptedAt: this.clock.now() });
    }
  }

  private async openSession(tx: EntityManager, user: UserEntity, organization: OrganizationEntity, role: Role, ttlSeconds: number): Promise<AuthResult> {
    const expiresAt = new Date(this.clock.now().getTime() + ttlSeconds * 1000);
    const session = await tx.getRepository(SessionEntity).save({ id: randomUUID(), userId: user.id, orgId: organization.id, expiresAt, revokedAt: null });
    return { accessToken: await this.sign(user.id, session.id, expiresAt), expiresAt, user, organization, role };
  }

  private sign(userId: string, sessionId: string, expiresAt: Date): Promise<string> {
    return this.jwt.signAsync({ sid: sessionId, exp: Math.floor(expiresAt.getTime() / 1000) }, { subject: userId });
  }
}
