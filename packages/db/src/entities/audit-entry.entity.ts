import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

import { CreatedAt } from './columns.js';

/** One operator action on the admin surface. */
@Entity({ name: 'audit_log' })
export class AuditEntry {
  /** Internal; bigint, so pg returns it as a string. */
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  /**
   * Who acted, as read: the operator's e-mail (which never changes), or `system:<what>` for the service
   * itself. Indexed: the console finds an operator's entries by e-mail.
   */
  @Index()
  @Column({ type: 'text' })
  actor!: string;

  /** The operator, from their session or token (never from what the request claims); null for the system. */
  @Index()
  @Column({ name: 'operator_id', type: 'uuid', nullable: true })
  operatorId!: string | null;

  /** What was done, e.g. `org.create`, `api-key.revoke`. */
  @Column({ type: 'text' })
  action!: string;

  @Index()
  @Column({ name: 'org_id', type: 'integer', nullable: true })
  orgId!: number | null;

  /** The target's id and the request, secrets removed. */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  details!: object;

  @CreatedAt()
  createdAt!: Date;
}
