import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

@Entity('users')
export class UserEntity {
  @PrimaryColumn('uuid')
  id: string;

  /** Stored lower-cased; unique. */
  @Index('users_email_key', { unique: true })
  @Column('text')
  email: string;

  @Column('text')
  name: string;

  /** scrypt, self-describing (`scrypt$N$r$p$salt$hash`); null for users who have never set one. */
  @Column('text', { name: 'password_hash', nullable: true })
  passwordHash: string | null;

  /** Runs the platform: manages the default price book. Set with `fanout user create --platform-admin`, never through the API. */
  @Column('boolean', { name: 'platform_admin', default: false })
  platformAdmin: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
