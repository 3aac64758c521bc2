import { IsBoolean, IsDefined, IsString, Matches } from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';

export const ORG_USER_ID = /^[A-Za-z0-9._:@-]{1,128}$/;
export const ORG_USER_ID_RULE = '1 to 128 characters among letters, digits and . _ : @ -';

/** Body of POST /api/v1/user/ (docs/api-guide.md#users-events). */
export class CreateUserDto {
  @IsDefined()
  @IsString()
  @Matches(ORG_USER_ID, { message: `orgUserId must be ${ORG_USER_ID_RULE}` })
  @ApiProperty({
    description: `The organisation's own id of the user: ${ORG_USER_ID_RULE}`,
    pattern: ORG_USER_ID.source,
    example: 'user-42',
  })
  orgUserId!: string;

  /** True when the organisation ran KYC itself: the user is ACTIVE at once. */
  @IsDefined()
  @IsBoolean()
  @ApiProperty({ description: 'True when the organisation ran KYC itself: the user is ACTIVE at once' })
  kyc!: boolean;

  @IsDefined()
  @IsBoolean()
  @ApiProperty({ description: 'Whether the user accepted the terms and conditions' })
  tnc!: boolean;
}
