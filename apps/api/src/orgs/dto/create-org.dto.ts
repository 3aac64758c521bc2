import type { OrgEnvironment, OrgPlan } from '@svc/db';
import { IsDefined, IsIn } from 'class-validator';

import { IfPresent } from '../../common/validation.js';
import { KycDomain, OrgName, Plan, SupportEmails } from './org-fields.js';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ORG_ENVIRONMENTS, ORG_PLANS } from '@svc/db';
import { KYC_DOMAIN, MAX_SUPPORT_EMAILS, ORG_NAME } from './org-fields.js';

/** Body of POST /api/v1/admin/orgs/. */
export class CreateOrgDto {
  @IsDefined()
  @OrgName()
  @ApiProperty({
    pattern: ORG_NAME.source,
    description: '1 to 200 characters, not blank, without control characters',
  })
  name!: string;

  @IsDefined()
  @KycDomain()
  @ApiProperty({
    pattern: KYC_DOMAIN.source,
    description: 'A hostname (lowercased when stored); webhook hosts must be it or a subdomain',
    example: 'example.com',
  })
  kycDomain!: string;

  @IsDefined()
  @Plan()
  @ApiProperty({ enum: ORG_PLANS })
  plan!: OrgPlan;

  /**
   * Where failed webhook deliveries are reported (docs/decisions.md, "Webhooks: attempts, retries and the
   * window"); none by default.
   */
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

  /** Fixed at creation (docs/testing.md#sandbox-organisations); LIVE by default. */
  @IfPresent()
  @IsIn(ORG_ENVIRONMENTS, { message: `environment must be one of ${ORG_ENVIRONMENTS.join(', ')}` })
  @ApiPropertyOptional({
    enum: ORG_ENVIRONMENTS,
    default: 'LIVE',
    description:
      'SANDBOX for testing an integration: the test clock, magic values and triggered events; fixed at creation',
  })
  environment?: OrgEnvironment;
}
