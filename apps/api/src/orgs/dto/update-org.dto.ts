import type { OrgPlan } from '@svc/db';

import { IfPresent } from '../../common/validation.js';
import { KycDomain, OrgName, Plan, SupportEmails } from './org-fields.js';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { ORG_PLANS } from '@svc/db';
import { KYC_DOMAIN, MAX_SUPPORT_EMAILS, ORG_NAME } from './org-fields.js';

/** Body of PATCH /api/v1/admin/orgs/{orgId}/: the fields to change; supportEmails replaces the list. */
export class UpdateOrgDto {
  @IfPresent()
  @OrgName()
  @ApiPropertyOptional({
    pattern: ORG_NAME.source,
    description: '1 to 200 characters, not blank, without control characters',
  })
  name?: string;

  @IfPresent()
  @KycDomain()
  @ApiPropertyOptional({
    pattern: KYC_DOMAIN.source,
    description: 'A hostname (lowercased when stored); webhook hosts must be it or a subdomain',
    example: 'example.com',
  })
  kycDomain?: string;

  @IfPresent()
  @Plan()
  @ApiPropertyOptional({ enum: ORG_PLANS })
  plan?: OrgPlan;

  @IfPresent()
  @SupportEmails()
  @ApiPropertyOptional({
    type: [String],
    format: 'email',
    maxItems: MAX_SUPPORT_EMAILS,
    uniqueItems: true,
    description: 'Where failed webhook deliveries are reported',
  })
  supportEmails?: string[];
}
