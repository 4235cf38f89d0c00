import { bigintNumber } from '#libs/database';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An org's spend counter for one calendar month (UTC): moved in the ledger's transaction, reserved by the scheduler. */
@Entity('org_spend')
export class OrgSpendEntity {
  @PrimaryColumn('uuid', { name: 'org_id' })
  orgId: string;

  /** First day of the month. */
  @PrimaryColumn('date')
  month: string;

  @Column('bigint', { name: 'spent_micros', default: 0, transformer: bigintNumber })
  spentMicros: number;

  @Column('bigint', { name: 'reserved_micros', default: 0, transformer: bigintNumber })
  reservedMicros: number;
}
