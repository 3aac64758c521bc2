import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';

import { Amount, CreatedAt } from './columns.js';
import { Order } from './order.entity.js';

/**
 * One execution of an order: a quantity at a price and what it cost. An order's filled quantity and amounts
 * are the sums of its fills (docs/api-guide.md#orders).
 */
@Entity({ name: 'order_fills' })
@Index('order_fills_order', ['orderId', 'id'])
export class OrderFill {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'order_id', type: 'bigint' })
  orderId!: string;

  @ManyToOne(() => Order, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'order_id' })
  order?: Order;

  @Column({ name: 'user_id', type: 'bigint' })
  userId!: string;

  @Amount('price')
  price!: string;

  @Amount('quantity')
  quantity!: string;

  /** Quantity x price, rounded to 8 decimals. */
  @Amount('net_amount')
  netAmount!: string;

  @Amount('commission_amount')
  commissionAmount!: string;

  @Amount('vat_amount')
  vatAmount!: string;

  /** What the user paid (BUY: net plus fees) or received (SELL: net minus fees) for this fill. */
  @Amount('total_amount')
  totalAmount!: string;

  @CreatedAt()
  createdAt!: Date;
}
