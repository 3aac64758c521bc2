import type { SystemNotice as SystemNoticeKind } from '@svc/protocol';
import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

import { CreatedAt } from './columns.js';

/** A notice operators published to every organisation (docs/api-guide.md#events, SystemInformation). */
@Entity({ name: 'system_notices' })
export class SystemNotice {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'text' })
  event!: SystemNoticeKind;

  /** The component concerned; a trading pair (BASE_QUOTE) for ASSET_ENABLE and ASSET_DISABLE. */
  @Column({ type: 'text' })
  entity!: string;

  @Column({ type: 'text' })
  message!: string;

  @Column({ name: 'start_time', type: 'timestamptz', precision: 3, nullable: true })
  startTime!: Date | null;

  @Column({ name: 'end_time', type: 'timestamptz', precision: 3, nullable: true })
  endTime!: Date | null;

  @CreatedAt()
  createdAt!: Date;
}

/**
 * A trading pair stopped by an ASSET_DISABLE notice from `startsAt` (null: at once) until `endsAt` (null:
 * until an ASSET_ENABLE notice sets it). Orders on the pair in between are REJECTED with ASSET_DISABLED.
 */
@Entity({ name: 'trading_halts' })
export class TradingHalt {
  @PrimaryColumn({ type: 'text' })
  symbol!: string;

  @Column({ name: 'notice_id', type: 'bigint' })
  noticeId!: string;

  @ManyToOne(() => SystemNotice, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'notice_id' })
  notice?: SystemNotice;

  @Column({ name: 'starts_at', type: 'timestamptz', precision: 3, nullable: true })
  startsAt!: Date | null;

  @Column({ name: 'ends_at', type: 'timestamptz', precision: 3, nullable: true })
  endsAt!: Date | null;
}
