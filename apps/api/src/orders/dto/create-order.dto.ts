import { ORDER_SIDES, ORDER_TYPES, type OrderSide, type OrderType } from '@svc/protocol';
import { IsDefined, IsIn, IsOptional, IsString, IsUUID, Matches } from 'class-validator';

import { SYMBOL, SYMBOL_RULE } from '../../common/assets.js';
import { type Dec, IsAmount } from '../../common/decimal.js';
import { ORG_USER_ID, ORG_USER_ID_RULE } from '../../users/dto/create-user.dto.js';

/** Body of POST /api/v1/orders/: a market order by base `quantity` or by `quoteQuantity`, never both. */
export class CreateOrderDto {
  @IsDefined()
  @IsString()
  @Matches(ORG_USER_ID, { message: `orgUserId must be ${ORG_USER_ID_RULE}` })
  orgUserId!: string;

  /** The idempotency key: the same id with the same parameters answers the same order. */
  @IsDefined()
  @IsUUID('all', { message: 'clientOrderId must be a UUID' })
  clientOrderId!: string;

  @IsDefined()
  @IsString()
  @Matches(SYMBOL, { message: `symbol must be ${SYMBOL_RULE}` })
  symbol!: string;

  @IsDefined()
  @IsIn(ORDER_SIDES)
  side!: OrderSide;

  @IsDefined()
  @IsIn(ORDER_TYPES)
  type!: OrderType;

  /** Base quantity; exactly one of quantity and quoteQuantity (checked by the service). */
  @IsOptional()
  @IsAmount()
  quantity?: Dec;

  /** Quote amount to trade, fees excluded. */
  @IsOptional()
  @IsAmount()
  quoteQuantity?: Dec;
}
