import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsISO8601, Max, Min } from 'class-validator';

import { IfPresent } from '../../common/validation.js';

/** The most one call moves the clock: ten years. */
export const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 60 * 60;

/** Body of POST /api/v1/sandbox/clock: exactly one of the two. */
export class AdvanceClockDto {
  @IfPresent()
  @IsInt({ message: 'advanceBy must be a whole number of seconds' })
  @Min(1, { message: 'advanceBy must be at least 1 (the clock never goes back)' })
  @Max(MAX_ADVANCE_SECONDS, { message: `advanceBy must be at most ${MAX_ADVANCE_SECONDS} (ten years)` })
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_ADVANCE_SECONDS,
    description: 'Seconds to move the clock forward',
    example: 31 * 24 * 60 * 60,
  })
  advanceBy?: number;

  @IfPresent()
  @IsISO8601({ strict: true }, { message: 'to must be an ISO 8601 time, e.g. 2030-01-01T00:00:00Z' })
  @ApiPropertyOptional({
    format: 'date-time',
    description: "The time to move the clock to: not before the organisation's current time",
  })
  to?: string;
}
