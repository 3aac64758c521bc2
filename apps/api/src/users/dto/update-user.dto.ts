import { IsBoolean, IsDefined } from 'class-validator';

/** Body of PATCH /api/v1/user/{orgUserId}/: the organisation records the terms-and-conditions flag. */
export class UpdateUserDto {
  @IsDefined()
  @IsBoolean()
  tnc!: boolean;
}
