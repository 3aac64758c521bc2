// Bodies of the operator's KYC decisions; the text goes to the audit log and to the organisation's view.
import { IsDefined, IsOptional, IsString, Length, Matches } from 'class-validator';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

const NOT_BLANK = /\S/;

export class ApproveKycDto {
  @IsOptional()
  @IsString()
  @Length(1, 1000, { message: 'note must be 1 to 1000 characters' })
  @Matches(NOT_BLANK, { message: 'note must not be blank' })
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 1000,
    pattern: NOT_BLANK.source,
    description: 'Shown to the organisation and kept in the audit log',
  })
  note?: string;
}

export class RejectKycDto {
  @IsDefined({ message: 'reason is required' })
  @IsString()
  @Length(1, 1000, { message: 'reason must be 1 to 1000 characters' })
  @Matches(NOT_BLANK, { message: 'reason must not be blank' })
  @ApiProperty({
    minLength: 1,
    maxLength: 1000,
    pattern: NOT_BLANK.source,
    description: 'Shown to the organisation and kept in the audit log',
  })
  reason!: string;
}

export class RequestInformationDto {
  /** What the user must provide; the organisation reads it in GET .../kyc/. */
  @IsDefined({ message: 'message is required' })
  @IsString()
  @Length(1, 2000, { message: 'message must be 1 to 2000 characters' })
  @Matches(NOT_BLANK, { message: 'message must not be blank' })
  @ApiProperty({
    minLength: 1,
    maxLength: 2000,
    pattern: NOT_BLANK.source,
    description: 'What the user must provide; the organisation reads it in the KYC view',
  })
  message!: string;
}
