import { ApiPropertyOptional } from '@nestjs/swagger';
import { EVENT_STATUSES, type EventStatus } from '@svc/db';
import { ENTITY_NAMES, KYC_EVENT_TYPES, type EntityName, type KycEventType } from '@svc/protocol';
import { IsIn, IsOptional } from 'class-validator';

import { PageQuery } from '../../common/pagination.js';
import { InstantQuery } from './event-query-fields.js';

/** GET /api/v1/events/: the organisation's events, oldest first, with filters. */
export class ListEventsQuery extends PageQuery {
  @IsOptional()
  @IsIn(ENTITY_NAMES)
  @ApiPropertyOptional({ enum: ENTITY_NAMES, description: 'Only events of this entity' })
  entity?: EntityName;

  @IsOptional()
  @IsIn(KYC_EVENT_TYPES)
  @ApiPropertyOptional({ enum: KYC_EVENT_TYPES, description: 'Only KYC events of this type' })
  eventType?: KycEventType;

  @IsOptional()
  @IsIn(EVENT_STATUSES)
  @ApiPropertyOptional({
    enum: EVENT_STATUSES,
    description:
      'Only events in this webhook delivery status: PENDING (being delivered or retried), DELIVERED, FAILED (retries over), SKIPPED (no active webhook)',
  })
  status?: EventStatus;

  @InstantQuery('Only events created at or after this time')
  since?: string;

  @InstantQuery('Only events created before this time')
  until?: string;
}
