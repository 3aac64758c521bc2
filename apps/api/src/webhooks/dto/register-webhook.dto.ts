import { IsDefined, IsString, Length, MaxLength } from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';

/** Body of POST /api/v1/webhooks/: where to send events and the secret to sign them with (docs/api-guide.md#webhook-signatures). */
export class RegisterWebhookDto {
  @IsDefined()
  @IsString()
  @MaxLength(2048)
  @ApiProperty({
    maxLength: 2048,
    description: "Where events are sent: https, on the organisation's kycDomain or a subdomain of it",
    example: 'https://hooks.example.com/svc',
  })
  url!: string;

  /** Chosen by the customer; stored encrypted, never shown again by the api. */
  @IsDefined()
  @IsString()
  @Length(16, 512, { message: 'secret must be 16 to 512 characters' })
  @ApiProperty({
    minLength: 16,
    maxLength: 512,
    description: 'Chosen by the organisation; events are signed with it. Stored encrypted, never shown again',
  })
  secret!: string;
}
