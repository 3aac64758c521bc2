import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayNotEmpty, ArrayUnique, IsArray, IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';

import {
  DASHBOARD_PAGES,
  DASHBOARD_PERMISSIONS,
  DASHBOARD_SCOPES,
  type DashboardPageName,
  type DashboardPermission,
  PERMISSION_DESCRIPTIONS,
  scopesText,
  SESSION_LIFETIME_SECONDS,
} from '../../auth/dashboard-permissions.js';

const { min, max } = SESSION_LIFETIME_SECONDS;

const PERMISSIONS_TEXT = DASHBOARD_PERMISSIONS.map(
  (name) =>
    `${name} (${PERMISSION_DESCRIPTIONS[name]}; needs ${scopesText(DASHBOARD_SCOPES.permissions[name])})`,
).join(', ');
const PAGES_TEXT = DASHBOARD_PAGES.map(
  (name) => `${name} (needs ${scopesText(DASHBOARD_SCOPES.pages[name])})`,
).join(', ');

/** Body of POST /api/v1/dashboard/sessions/: what the session may do and see, and how long it lasts. */
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
    description: `What the session may do beyond reading: ${PERMISSIONS_TEXT}. Omitted or empty: read only. A permission needing a scope the caller does not hold is refused (403).`,
    example: ['MANAGE_WEBHOOKS'],
  })
  permissions?: DashboardPermission[];

  @IsOptional()
  @IsArray({ message: 'pages must be an array of page names' })
  @ArrayNotEmpty({ message: 'pages must name at least one page, or be left out for every page allowed' })
  @ArrayUnique({ message: 'pages must not repeat a name' })
  @IsIn(DASHBOARD_PAGES, { each: true, message: `pages may hold only ${DASHBOARD_PAGES.join(', ')}` })
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', enum: [...DASHBOARD_PAGES] },
    uniqueItems: true,
    minItems: 1,
    description: `The pages the session may see: ${PAGES_TEXT}. Omitted: every page the caller's scopes allow. A page needing a scope the caller does not hold is refused (403).`,
    example: ['OVERVIEW', 'USERS'],
  })
  pages?: DashboardPageName[];

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
