import type { OrderSide, OrderStatus, OrderType, TimeInForce } from '@svc/protocol';
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
// The open orders, which the sweep reads by pair, the expiry by time and the limits by user (what they
// reserve); final orders are most of the table.
@Index('orders_open', ['symbol', 'id'], { where: `"status" IN ('PENDING', 'PARTIALLY_FILLED')` })
@Index('orders_user_open', ['userId'], { where: `"status" IN ('PENDING', 'PARTIALLY_FILLED')` })
@Index('orders_open_expiry', ['expireAt'], {
  where: `"status" IN ('PENDING', 'PARTIALLY_FILLED') AND "expire_at" IS NOT NULL`,
})
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

  /** Null on a MARKET order, which fills in full at once or is refused. */
  @Column({ name: 'time_in_force', type: 'text', nullable: true })
  timeInForce!: TimeInForce | null;

  /** LIMIT and STOP_LIMIT: the worst price the order fills at. */
  @Amount('limit_price', { nullable: true })
  limitPrice!: string | null;

  /** STOP and STOP_LIMIT: the last price that triggers the order. */
  @Amount('stop_price', { nullable: true })
  stopPrice!: string | null;

  /** When the last price crossed stopPrice; from then on the order executes as MARKET or LIMIT. */
  @Column({ name: 'triggered_at', type: 'timestamptz', precision: 3, nullable: true })
  triggeredAt!: Date | null;

  /** DAY and GTD: when the rest of the order expires. */
  @Column({ name: 'expire_at', type: 'timestamptz', precision: 3, nullable: true })
  expireAt!: Date | null;

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

  @Column({ name: 'cancel_reason', type: 'text', nullable: true })
  cancelReason!: string | null;

  /** The order this one replaced (PATCH /api/v1/orders/{id}/). */
  @Column({ type: 'bigint', nullable: true })
  replaces!: string | null;

  @CreatedAt()
  createdAt!: Date;

  @UpdatedAt()
  updatedAt!: Date;
}
