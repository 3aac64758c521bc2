import type { OrgPlan } from '@svc/db';
import { IsDefined } from 'class-validator';

import { IfPresent } from '../../common/validation.js';
import { KycDomain, OrgName, Plan, SupportEmails } from './org-fields.js';

/** Body of POST /api/v1/admin/orgs/. */
export class CreateOrgDto {
  @IsDefined()
  @OrgName()
  name!: string;

  @IsDefined()
  @KycDomain()
  kycDomain!: string;

  @IsDefined()
  @Plan()
  plan!: OrgPlan;

  /** Where failed webhook deliveries are reported (DESIGN section 9); none by default. */
  @IfPresent()
  @SupportEmails()
  supportEmails?: string[];
}
