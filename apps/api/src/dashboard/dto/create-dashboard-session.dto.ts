import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayUnique, IsArray, IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';

import {
  DASHBOARD_PERMISSIONS,
  type DashboardPermission,
  SESSION_LIFETIME_SECONDS,
} from '../dashboard-permissions.js';

const { min, max } = SESSION_LIFETIME_SECONDS;

/** Body of POST /api/v1/dashboard/sessions/: what the session may do and how long it lasts. */
export class CreateDashboardSessionDto {
  @IsOptional()
  @IsArray({ message: 'permissions must be an array of permission names' })
  @ArrayUnique({ message: 'permissions must not repeat a name' })
  @IsIn(DASHBOARD_PERMISSIONS, {
    each: true,
    message: `permissions may hold only ${DASHBOARD_PERMISSIONS.join(', ')}`,
  })
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', enum: [...DASHBOARD_PERMISSIONS] },
    uniqueItems: true,
    description:
      'What the session may do beyond reading: MANAGE_WEBHOOKS (change the webhook URL or secret, send test events), REVEAL_SECRET (show the webhook secret, audited), MANAGE_CREDENTIALS (revoke API keys and OAuth clients). Omitted or empty: read only.',
    example: ['MANAGE_WEBHOOKS'],
  })
  permissions?: DashboardPermission[];

  @IsOptional()
  @IsInt({ message: 'lifetimeSeconds must be a whole number of seconds' })
  @Min(min, { message: `lifetimeSeconds must be at least ${min}` })
  @Max(max, { message: `lifetimeSeconds must be at most ${max} (7 days)` })
  @ApiPropertyOptional({
    type: 'integer',
    minimum: min,
    maximum: max,
    default: SESSION_LIFETIME_SECONDS.default,
    description:
      'How long the session lasts once the link is opened, in seconds (default 1 hour, at most 7 days)',
  })
  lifetimeSeconds?: number;
}
