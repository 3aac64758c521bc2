import { ORDER_SIDES, ORDER_TYPES, type OrderSide, type OrderType } from '@svc/protocol';
import { IsDefined, IsIn, IsOptional, IsString, IsUUID, Matches } from 'class-validator';

import { SYMBOL, SYMBOL_RULE } from '../../common/assets.js';
import { AMOUNT_RULE, type Dec, IsAmount } from '../../common/decimal.js';
import { ORG_USER_ID, ORG_USER_ID_RULE } from '../../users/dto/create-user.dto.js';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Body of POST /api/v1/orders/: a market order by base `quantity` or by `quoteQuantity`, never both. */
export class CreateOrderDto {
  @IsDefined()
  @IsString()
  @Matches(ORG_USER_ID, { message: `orgUserId must be ${ORG_USER_ID_RULE}` })
  @ApiProperty({ pattern: ORG_USER_ID.source, description: ORG_USER_ID_RULE })
  orgUserId!: string;

  /** The idempotency key: the same id with the same parameters answers the same order. */
  @IsDefined()
  @IsUUID('all', { message: 'clientOrderId must be a UUID' })
  @ApiProperty({
    format: 'uuid',
    description: 'The idempotency key: the same id with the same parameters answers the same order',
  })
  clientOrderId!: string;

  @IsDefined()
  @IsString()
  @Matches(SYMBOL, { message: `symbol must be ${SYMBOL_RULE}` })
  @ApiProperty({ pattern: SYMBOL.source, description: SYMBOL_RULE, example: 'BTC_EUR' })
  symbol!: string;

  @IsDefined()
  @IsIn(ORDER_SIDES)
  @ApiProperty({ enum: ORDER_SIDES })
  side!: OrderSide;

  @IsDefined()
  @IsIn(ORDER_TYPES)
  @ApiProperty({ enum: ORDER_TYPES })
  type!: OrderType;

  /** Base quantity; exactly one of quantity and quoteQuantity (checked by the service). */
  @IsOptional()
  @IsAmount()
  @ApiPropertyOptional({
    type: 'number',
    minimum: 0,
    exclusiveMinimum: true,
    description: `Base quantity, ${AMOUNT_RULE}; exactly one of quantity and quoteQuantity`,
  })
  quantity?: Dec;

  /** Quote amount to trade, fees excluded. */
  @IsOptional()
  @IsAmount()
  @ApiPropertyOptional({
    type: 'number',
    minimum: 0,
    exclusiveMinimum: true,
    description: `Quote amount to trade, fees excluded, ${AMOUNT_RULE}; exactly one of quantity and quoteQuantity`,
  })
  quoteQuantity?: Dec;
}
