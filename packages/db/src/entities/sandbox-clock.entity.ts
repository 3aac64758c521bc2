import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';

import { UpdatedAt } from './columns.js';
import { Organisation } from './organisation.entity.js';

/**
 * A sandbox organisation's test clock (docs/testing.md#the-test-clock): its time is the real time plus
 * `offsetMs`, which only grows. An organisation without a row runs on real time.
 */
@Entity({ name: 'sandbox_clocks' })
export class SandboxClock {
  @PrimaryColumn({ name: 'org_id', type: 'integer' })
  orgId!: number;

  @OneToOne(() => Organisation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'org_id' })
  organisation?: Organisation;

  /** Milliseconds ahead of real time; bigint, so pg returns it as a string. */
  @Column({ name: 'offset_ms', type: 'bigint' })
  offsetMs!: string;

  @UpdatedAt()
  updatedAt!: Date;
}
