import { TIME_IN_FORCE, type TimeInForce } from '@svc/protocol';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, IsUUID } from 'class-validator';

import { AMOUNT_RULE, type Dec, IsAmount } from '../../common/decimal.js';
import { INSTANT_RULE } from '../../common/instant.js';
import { IsInstant } from './create-order.dto.js';

/**
 * Body of PATCH /api/v1/orders/{id}/: the new order that replaces a resting one. It keeps the user, symbol,
 * side and type; what is left out is taken from the order it replaces.
 */
export class ReplaceOrderDto {
  @IsDefined()
  @IsUUID('all', { message: 'clientOrderId must be a UUID' })
  @ApiProperty({
    format: 'uuid',
    description: "The new order's clientOrderId: a retry with the same one answers the same new order",
  })
  clientOrderId!: string;

  @IsOptional()
  @IsAmount()
  @ApiPropertyOptional({
    type: 'number',
    minimum: 0,
    exclusiveMinimum: true,
    description: `Base quantity of the new order, ${AMOUNT_RULE}; by default what the old order had left to fill`,
  })
  quantity?: Dec;

  @IsOptional()
  @IsAmount()
  @ApiPropertyOptional({
    type: 'number',
    minimum: 0,
    exclusiveMinimum: true,
    description: `LIMIT and STOP_LIMIT, ${AMOUNT_RULE}`,
  })
  limitPrice?: Dec;

  @IsOptional()
  @IsAmount()
  @ApiPropertyOptional({
    type: 'number',
    minimum: 0,
    exclusiveMinimum: true,
    description: `STOP and STOP_LIMIT, ${AMOUNT_RULE}`,
  })
  stopPrice?: Dec;

  @IsOptional()
  @IsIn(TIME_IN_FORCE, { message: `timeInForce must be one of ${TIME_IN_FORCE.join(', ')}` })
  @ApiPropertyOptional({ enum: TIME_IN_FORCE })
  timeInForce?: TimeInForce;

  @IsOptional()
  @IsInstant()
  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    description: `With GTD: ${INSTANT_RULE}, in the future`,
  })
  expireAt?: string;
}
