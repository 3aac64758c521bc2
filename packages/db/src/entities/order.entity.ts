import type { OrderSide, OrderStatus, OrderType } from '@svc/protocol';
import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';

import { Amount, CreatedAt, UpdatedAt } from './columns.js';
import { Organisation } from './organisation.entity.js';
import { User } from './user.entity.js';

/** Which amount the organisation gave: the other one is derived from the price. */
export const ORDER_AMOUNT_FIELDS = ['quantity', 'quoteQuantity'] as const;
export type OrderAmountField = (typeof ORDER_AMOUNT_FIELDS)[number];

/**
 * An order of an organisation's user (docs/api-guide.md#orders-events, docs/decisions.md, "Orders: routes and
 * outcomes"). `clientOrderId` is the idempotency key within the organisation. Amounts are decimal strings
 * with 8 decimals; see the api's order view for their meaning.
 */
@Entity({ name: 'orders' })
@Unique('orders_org_client_order', ['orgId', 'clientOrderId'])
@Index('orders_org_id', ['orgId', 'id'])
@Index('orders_org_user', ['orgId', 'orgUserId', 'id'])
@Index('orders_user_created', ['userId', 'createdAt'])
// Orders per day, one organisation's and every one's (the dashboard's overview, the console's home).
@Index('orders_org_created', ['orgId', 'createdAt'])
@Index('orders_created', ['createdAt'])
export class Order {
  /** The spec's integer id; bigint, so pg returns it as a string. */
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'org_id', type: 'integer' })
  orgId!: number;

  @ManyToOne(() => Organisation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'org_id' })
  organisation?: Organisation;

  @Column({ name: 'user_id', type: 'bigint' })
  userId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ name: 'org_user_id', type: 'text' })
  orgUserId!: string;

  @Column({ name: 'client_order_id', type: 'uuid' })
  clientOrderId!: string;

  /** BASE_QUOTE. */
  @Column({ type: 'text' })
  symbol!: string;

  @Column({ type: 'text' })
  side!: OrderSide;

  @Column({ type: 'text' })
  type!: OrderType;

  @Column({ name: 'amount_field', type: 'text' })
  amountField!: OrderAmountField;

  @Amount('quantity')
  quantity!: string;

  @Amount('quote_quantity')
  quoteQuantity!: string;

  @Amount('filled')
  filled!: string;

  @Column({ type: 'text' })
  status!: OrderStatus;

  @Amount('price')
  price!: string;

  @Amount('average_price')
  averagePrice!: string;

  @Amount('estimated_price')
  estimatedPrice!: string;

  @Amount('base_average_price')
  baseAveragePrice!: string;

  @Amount('commission_rate')
  commissionRate!: string;

  @Amount('vat_rate')
  vatRate!: string;

  @Amount('commission_amount')
  commissionAmount!: string;

  @Amount('vat_amount')
  vatAmount!: string;

  @Amount('net_executed_amount')
  netExecutedAmount!: string;

  @Amount('total_executed_amount')
  totalExecutedAmount!: string;

  @Column({ name: 'commission_asset', type: 'text' })
  commissionAsset!: string;

  @Column({ name: 'rejection_reason', type: 'text', nullable: true })
  rejectionReason!: string | null;

  @CreatedAt()
  createdAt!: Date;

  @UpdatedAt()
  updatedAt!: Date;
}
