import { ORDER_SIDES, ORDER_STATUSES, type OrderSide, type OrderStatus } from '@svc/protocol';
import { IsIn, IsOptional, IsUUID, Matches } from 'class-validator';

import { SYMBOL, SYMBOL_RULE } from '../../common/assets.js';
import { PageQuery } from '../../common/pagination.js';
import { ORG_USER_ID, ORG_USER_ID_RULE } from '../../users/dto/create-user.dto.js';
import { ApiPropertyOptional } from '@nestjs/swagger';

export class ListOrdersQuery extends PageQuery {
  @IsOptional()
  @Matches(ORG_USER_ID, { message: `orgUserId must be ${ORG_USER_ID_RULE}` })
  @ApiPropertyOptional({ pattern: ORG_USER_ID.source })
  orgUserId?: string;

  @IsOptional()
  @Matches(SYMBOL, { message: `symbol must be ${SYMBOL_RULE}` })
  @ApiPropertyOptional({ pattern: SYMBOL.source, example: 'BTC_EUR' })
  symbol?: string;

  @IsOptional()
  @IsIn(ORDER_SIDES)
  @ApiPropertyOptional({ enum: ORDER_SIDES })
  side?: OrderSide;

  @IsOptional()
  @IsIn(ORDER_STATUSES)
  @ApiPropertyOptional({ enum: ORDER_STATUSES })
  status?: OrderStatus;

  @IsOptional()
  @IsUUID('all', { message: 'clientOrderId must be a UUID' })
  @ApiPropertyOptional({ format: 'uuid' })
  clientOrderId?: string;
}
