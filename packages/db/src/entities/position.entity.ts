import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

import { Amount, CreatedAt, UpdatedAt } from './columns.js';
import { User } from './user.entity.js';

/** How much of a base asset a user holds, changed in the transaction of each fill. */
@Entity({ name: 'positions' })
@Check('positions_quantity_not_negative', '"quantity" >= 0')
export class Position {
  @PrimaryColumn({ name: 'user_id', type: 'bigint' })
  userId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @PrimaryColumn({ type: 'text' })
  asset!: string;

  @Column({ name: 'org_id', type: 'integer' })
  orgId!: number;

  @Amount('quantity')
  quantity!: string;

  @CreatedAt()
  createdAt!: Date;

  @UpdatedAt()
  updatedAt!: Date;
}
