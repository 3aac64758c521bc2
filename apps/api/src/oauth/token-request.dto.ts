import { IsDefined, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';

/** Form body of POST /api/v1/oauth/token (spec 4.1); the client may authenticate with HTTP Basic instead. */
export class TokenRequestDto {
  @IsDefined()
  @IsIn(['client_credentials'], { message: 'grant_type must be client_credentials' })
  grant_type!: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  client_id?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  client_secret?: string;

  @IsDefined()
  @IsString()
  @MaxLength(1000)
  scope!: string;
}
