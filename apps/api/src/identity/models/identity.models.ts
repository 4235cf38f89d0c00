import { Role } from '#libs/identity';
import { Field, GraphQLISODateTime, ID, ObjectType, registerEnumType } from '@nestjs/graphql';
import { Connection } from '../../graphql/connection.js';

registerEnumType(Role, { name: 'Role', description: 'A member\'s (or API key\'s) role in an organization.' });

export enum CredentialKind {
  USER = 'user',
  API_KEY = 'api_key',
}
registerEnumType(CredentialKind, { name: 'CredentialKind' });

@ObjectType()
export class User {
  @Field(() => ID)
  id: string;

  @Field()
  email: string;

  @Field()
  name: string;

  @Field(() => GraphQLISODateTime)
  createdAt: Date;
}

@ObjectType()
export class Organization {
  @Field(() => ID)
  id: string;

  @Field()
  slug: string;

  @Field()
  name: string;

  @Field({ description: 'Made for a user at sign-up.' })
  personal: boolean;

  @Field(() => GraphQLISODateTime)
  createdAt: Date;
}

@ObjectType({ description: 'A user\'s membership of an organization.' })
export class Member {
  @Field(() => ID)
  id: string;

  userId: string;
  orgId: string;

  @Field(() => Role)
  role: Role;

  @Field(() => GraphQLISODateTime, { description: 'When the membership began.' })
  createdAt: Date;
}

@ObjectType()
export class Invitation {
  @Field(() => ID)
  id: string;

  @Field()
  email: string;

  @Field(() => Role)
  role: Role;

  @Field(() => GraphQLISODateTime)
  createdAt: Date;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Set when the invited person joined (at once for existing users).' })
  acceptedAt: Date | null;
}

@ObjectType({ description: 'An API key. The secret is shown once, by createApiKey, and never stored.' })
export class ApiKey {
  @Field(() => ID)
  id: string;

  @Field()
  name: string;

  @Field({ description: 'The public part: keys look like fo_<prefix>_<secret>.' })
  prefix: string;

  @Field(() => Role)
  role: Role;

  @Field(() => GraphQLISODateTime)
  createdAt: Date;

  @Field(() => GraphQLISODateTime, { nullable: true })
  lastUsedAt: Date | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  expiresAt: Date | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  revokedAt: Date | null;
}

@ObjectType()
export class CreatedApiKey {
  @Field(() => ApiKey)
  apiKey: ApiKey;

  @Field({ description: 'The whole key. Store it now: it is never shown again.' })
  key: string;
}

@ObjectType()
export class AuthPayload {
  @Field({ description: 'Send as Authorization: Bearer <accessToken>.' })
  accessToken: string;

  @Field(() => GraphQLISODateTime)
  expiresAt: Date;

  @Field(() => User)
  user: User;

  @Field(() => Organization, { description: 'The organization this session acts in.' })
  organization: Organization;

  @Field(() => Role)
  role: Role;
}

@ObjectType({ description: 'The caller, as its credential says.' })
export class Viewer {
  @Field(() => CredentialKind)
  kind: CredentialKind;

  @Field(() => User, { nullable: true, description: 'Null for API keys.' })
  user: User | null;

  @Field(() => Organization)
  organization: Organization;

  @Field(() => Role)
  role: Role;

  @Field(() => ApiKey, { nullable: true, description: 'The key in use, for API-key callers.' })
  apiKey: ApiKey | null;
}

@ObjectType()
export class OrganizationConnection extends Connection(Organization) {}

@ObjectType()
export class MemberConnection extends Connection(Member) {}

@ObjectType()
export class ApiKeyConnection extends Connection(ApiKey) {}

@ObjectType()
export class InvitationConnection extends Connection(Invitation) {}
