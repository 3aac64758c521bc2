import { type Dec, IsAmount } from '../../common/decimal.js';
import { ApiProperty } from '@nestjs/swagger';
import { AMOUNT_RULE } from '../../common/decimal.js';

/** Body of PUT /api/v1/admin/prices/{symbol}/. */
export class SetPriceDto {
  @IsAmount()
  @ApiProperty({
    type: 'number',
    minimum: 0,
    exclusiveMinimum: true,
    description: `The price in the quote currency, ${AMOUNT_RULE}`,
    example: 55000.5,
  })
  price!: Dec;
}
