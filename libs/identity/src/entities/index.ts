import { ApiKeyEntity } from './api-key.entity.js';
import { InvitationEntity } from './invitation.entity.js';
import { MembershipEntity } from './membership.entity.js';
import { OrganizationEntity } from './organization.entity.js';
import { SessionEntity } from './session.entity.js';
import { UserEntity } from './user.entity.js';

export { ApiKeyEntity, InvitationEntity, MembershipEntity, OrganizationEntity, SessionEntity, UserEntity };
export const identityEntities = [UserEntity, OrganizationEntity, MembershipEntity, ApiKeyEntity, SessionEntity, InvitationEntity];
