import { Role } from '#libs/identity';
import { Field, GraphQLISODateTime, InputType } from '@nestjs/graphql';
import { IsEmail, IsEnum, IsOptional, IsString, Length, Matches, MaxLength, MinLength } from 'class-validator';

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

@InputType()
export class SignUpInput {
  @Field()
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  email: string;

  @Field({ description: 'At least 10 characters.' })
  @IsString()
  @Length(10, 200)
  password: string;

  @Field()
  @IsString()
  @Length(1, 120)
  name: string;
}

@InputType()
export class LoginInput {
  @Field()
  @IsString()
  @MaxLength(254)
  email: string;

  @Field()
  @IsString()
  @MaxLength(200)
  password: string;
}

@InputType()
export class CreateOrganizationInput {
  @Field()
  @IsString()
  @Length(1, 120)
  name: string;

  @Field(() => String, { nullable: true, description: 'URL name; derived from the name when omitted.' })
  @IsOptional()
  @Matches(SLUG, { message: 'slug must be lower-case letters, digits and inner dashes, 1 to 40 characters' })
  slug?: string;
}

@InputType()
export class InviteMemberInput {
  @Field()
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  email: string;

  @Field(() => Role)
  @IsEnum(Role)
  role: Role;
}

@InputType()
export class UpdateMemberRoleInput {
  @Field()
  @IsString()
  @MaxLength(64)
  userId: string;

  @Field(() => Role)
  @IsEnum(Role)
  role: Role;
}

@InputType()
export class CreateApiKeyInput {
  @Field()
  @IsString()
  @Length(1, 100)
  name: string;

  @Field(() => Role, { description: 'At most your own role.' })
  @IsEnum(Role)
  role: Role;

  @Field(() => GraphQLISODateTime, { nullable: true })
  @IsOptional()
  expiresAt?: Date;
}
