import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

import { CreatedAt } from './columns.js';
import { Organisation } from './organisation.entity.js';

/**
 * An event stream an api instance holds open for an organisation (docs/decisions.md, "Events: serving the
 * stream"): the per-organisation cap counts these, whichever instance serves them. The instance renews its
 * leases while the streams are open and deletes them when they close; a lease left by an instance that died
 * lapses at `expiresAt`.
 */
@Entity({ name: 'event_streams' })
@Index('event_streams_org', ['orgId', 'expiresAt'])
export class EventStreamLease {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'org_id', type: 'integer' })
  orgId!: number;

  @ManyToOne(() => Organisation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'org_id' })
  organisation?: Organisation;

  @Column({ name: 'expires_at', type: 'timestamptz', precision: 3 })
  expiresAt!: Date;

  @CreatedAt()
  createdAt!: Date;
}
