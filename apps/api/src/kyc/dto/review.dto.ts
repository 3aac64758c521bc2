// Bodies of the operator's KYC decisions; the text goes to the audit log and to the organisation's view.
import { IsDefined, IsOptional, IsString, Length, Matches } from 'class-validator';

const NOT_BLANK = /\S/;

export class ApproveKycDto {
  @IsOptional()
  @IsString()
  @Length(1, 1000, { message: 'note must be 1 to 1000 characters' })
  @Matches(NOT_BLANK, { message: 'note must not be blank' })
  note?: string;
}

export class RejectKycDto {
  @IsDefined({ message: 'reason is required' })
  @IsString()
  @Length(1, 1000, { message: 'reason must be 1 to 1000 characters' })
  @Matches(NOT_BLANK, { message: 'reason must not be blank' })
  reason!: string;
}

export class RequestInformationDto {
  /** What the user must provide; the organisation reads it in GET .../kyc/. */
  @IsDefined({ message: 'message is required' })
  @IsString()
  @Length(1, 2000, { message: 'message must be 1 to 2000 characters' })
  @Matches(NOT_BLANK, { message: 'message must not be blank' })
  message!: string;
}
