import {
  ORDER_SIDES,
  ORDER_TYPES,
  type OrderSide,
  type OrderType,
  TIME_IN_FORCE,
  type TimeInForce,
} from '@svc/protocol';
import { IsDefined, IsIn, IsOptional, IsString, IsUUID, Matches, registerDecorator } from 'class-validator';

import { INSTANT_RULE, parseInstant } from '../../common/instant.js';

import { SYMBOL, SYMBOL_RULE } from '../../common/assets.js';
import { AMOUNT_RULE, type Dec, IsAmount } from '../../common/decimal.js';
import { ORG_USER_ID, ORG_USER_ID_RULE } from '../../users/dto/create-user.dto.js';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** An ISO 8601 instant with a zone (common/instant.ts); the message names the field and the rule. */
export function IsInstant() {
  return (target: object, propertyName: string) => {
    registerDecorator({
      name: 'isInstant',
      target: target.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) => parseInstant(value) !== undefined,
        defaultMessage: () => `${propertyName} must be ${INSTANT_RULE}`,
      },
    });
  };
}

/**
 * Body of POST /api/v1/orders/: by base `quantity` or (MARKET only) by `quoteQuantity`, never both. Which
 * prices and time in force each type takes is checked by the service (orders/order-terms.ts).
 */
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

  @IsOptional()
  @IsIn(TIME_IN_FORCE, { message: `timeInForce must be one of ${TIME_IN_FORCE.join(', ')}` })
  @ApiPropertyOptional({
    enum: TIME_IN_FORCE,
    description:
      'How long the order may rest: GTC (default for LIMIT, STOP and STOP_LIMIT), IOC, FOK (LIMIT only), DAY (until the next 00:00 UTC) or GTD (until expireAt). Not taken by MARKET orders, which fill in full at once or are refused',
  })
  timeInForce?: TimeInForce;

  @IsOptional()
  @IsAmount()
  @ApiPropertyOptional({
    type: 'number',
    minimum: 0,
    exclusiveMinimum: true,
    description: `LIMIT and STOP_LIMIT (required there, refused elsewhere): the worst price to fill at, ${AMOUNT_RULE}`,
  })
  limitPrice?: Dec;

  @IsOptional()
  @IsAmount()
  @ApiPropertyOptional({
    type: 'number',
    minimum: 0,
    exclusiveMinimum: true,
    description: `STOP and STOP_LIMIT (required there, refused elsewhere): the last price that triggers the order, ${AMOUNT_RULE}`,
  })
  stopPrice?: Dec;

  @IsOptional()
  @IsInstant()
  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    description: `GTD only (required there): when the rest of the order expires, in the future; ${INSTANT_RULE}`,
  })
  expireAt?: string;
}
