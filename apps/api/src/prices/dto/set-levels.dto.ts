import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, ValidateNested } from 'class-validator';

import { AMOUNT_RULE, type Dec, IsAmount } from '../../common/decimal.js';

/** At most this many levels a side: a book an operator sets by hand, not a feed. */
export const MAX_LEVELS = 100;

export class LevelDto {
  @IsAmount()
  @ApiProperty({
    type: 'number',
    minimum: 0,
    exclusiveMinimum: true,
    description: `The price, ${AMOUNT_RULE}`,
  })
  price!: Dec;

  @IsAmount()
  @ApiProperty({
    type: 'number',
    minimum: 0,
    exclusiveMinimum: true,
    description: `What may be taken at this price, in the base asset, ${AMOUNT_RULE}`,
  })
  size!: Dec;
}

/** Body of PUT /api/v1/admin/prices/{symbol}/levels/: the pair's whole book, replacing the one it had. */
export class SetLevelsDto {
  @IsDefined()
  @IsArray()
  @ArrayMaxSize(MAX_LEVELS)
  @ValidateNested({ each: true })
  @Type(() => LevelDto)
  @ApiProperty({ type: [LevelDto], description: `The ask levels, at most ${MAX_LEVELS}, each price once` })
  asks!: LevelDto[];

  @IsDefined()
  @IsArray()
  @ArrayMaxSize(MAX_LEVELS)
  @ValidateNested({ each: true })
  @Type(() => LevelDto)
  @ApiProperty({ type: [LevelDto], description: `The bid levels, at most ${MAX_LEVELS}, each price once` })
  bids!: LevelDto[];
}
