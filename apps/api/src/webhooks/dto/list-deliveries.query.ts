import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional, IsUUID } from 'class-validator';

import { PageQuery } from '../../common/pagination.js';
import { ApiPropertyOptional } from '@nestjs/swagger';

const toBoolean = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;

/** GET /api/v1/webhooks/deliveries/: the attempt log, oldest first, optionally for one event or one outcome. */
export class ListDeliveriesQuery extends PageQuery {
  @IsOptional()
  @IsUUID()
  @ApiPropertyOptional({ format: 'uuid', description: 'Only the attempts of this event' })
  eventId?: string;

  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  @ApiPropertyOptional({
    type: Boolean,
    description: 'Only successful (`true`) or failed (`false`) attempts',
  })
  delivered?: boolean;
}
