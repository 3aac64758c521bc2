import { IsBoolean, IsDefined } from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';

/** Body of PATCH /api/v1/user/{orgUserId}/: the organisation records the terms-and-conditions flag. */
export class UpdateUserDto {
  @IsDefined()
  @IsBoolean()
  @ApiProperty({ description: 'Whether the user accepted the terms and conditions' })
  tnc!: boolean;
}
