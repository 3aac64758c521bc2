import { type Dec, IsAmount } from '../../common/decimal.js';

/** Body of PUT /api/v1/admin/prices/{symbol}/. */
export class SetPriceDto {
  @IsAmount()
  price!: Dec;
}
