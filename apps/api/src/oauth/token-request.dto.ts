import { IsDefined, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Form body of POST /api/v1/oauth/token (docs/api-guide.md#oauth-client-credentials); the client may authenticate with HTTP Basic instead. */
export class TokenRequestDto {
  @IsDefined()
  @IsIn(['client_credentials'], { message: 'grant_type must be client_credentials' })
  @ApiProperty({ enum: ['client_credentials'] })
  grant_type!: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  @ApiPropertyOptional({
    maxLength: 200,
    description: 'Required unless the client authenticates with HTTP Basic',
  })
  client_id?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  @ApiPropertyOptional({
    maxLength: 200,
    description: 'Required unless the client authenticates with HTTP Basic',
  })
  client_secret?: string;

  @IsDefined()
  @IsString()
  @MaxLength(1000)
  @ApiProperty({
    maxLength: 1000,
    description: 'The scopes asked for, space-separated MODULE:PERMISSION values',
    example: 'BASE_MODULE:READWRITE',
  })
  scope!: string;
}
