import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ENTITY_NAMES, type EntityName, KYC_EVENT_TYPES, type KycEventType } from '@svc/protocol';
import { IsDefined, IsIn, IsString, Matches } from 'class-validator';

import { IfPresent } from '../../common/validation.js';
import { ORG_USER_ID, ORG_USER_ID_RULE } from '../../users/dto/create-user.dto.js';

/** Body of POST /api/v1/sandbox/events (docs/testing.md#svc-trigger-and-triggered-events). */
export class TriggerEventDto {
  @IsDefined()
  @IsIn(ENTITY_NAMES, { message: `entity must be one of ${ENTITY_NAMES.join(', ')}` })
  @ApiProperty({ enum: ENTITY_NAMES, description: 'What the event is about' })
  entity!: EntityName;

  @IfPresent()
  @IsIn(KYC_EVENT_TYPES, { message: `eventType must be one of ${KYC_EVENT_TYPES.join(', ')}` })
  @ApiPropertyOptional({
    enum: KYC_EVENT_TYPES,
    description: 'A KYC event (entity Users only); without it a Users event is the plain user record',
  })
  eventType?: KycEventType;

  @IfPresent()
  @IsString()
  @Matches(ORG_USER_ID, { message: `orgUserId must be ${ORG_USER_ID_RULE}` })
  @ApiPropertyOptional({
    pattern: ORG_USER_ID.source,
    description:
      'The user of a Users or Orders event, who must exist; without it a new sandbox user is created for it',
  })
  orgUserId?: string;
}
