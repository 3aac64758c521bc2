import { IsDefined, IsString, Length, MaxLength } from 'class-validator';

/** Body of POST /api/v1/webhooks/: where to send events and the secret to sign them with (spec 5.3). */
export class RegisterWebhookDto {
  @IsDefined()
  @IsString()
  @MaxLength(2048)
  url!: string;

  /** Chosen by the customer; stored encrypted, never shown again by the api. */
  @IsDefined()
  @IsString()
  @Length(16, 512, { message: 'secret must be 16 to 512 characters' })
  secret!: string;
}
