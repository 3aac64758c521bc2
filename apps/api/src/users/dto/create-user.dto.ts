import { IsBoolean, IsDefined, IsString, Matches } from 'class-validator';

export const ORG_USER_ID = /^[A-Za-z0-9._:@-]{1,128}$/;
export const ORG_USER_ID_RULE = '1 to 128 characters among letters, digits and . _ : @ -';

/** Body of POST /api/v1/user/ (spec 4.3). */
export class CreateUserDto {
  @IsDefined()
  @IsString()
  @Matches(ORG_USER_ID, { message: `orgUserId must be ${ORG_USER_ID_RULE}` })
  orgUserId!: string;

  /** True when the organisation ran KYC itself: the user is ACTIVE at once. */
  @IsDefined()
  @IsBoolean()
  kyc!: boolean;

  @IsDefined()
  @IsBoolean()
  tnc!: boolean;
}
