import type { OrgPlan } from '@svc/db';

import { IfPresent } from '../../common/validation.js';
import { KycDomain, OrgName, Plan, SupportEmails } from './org-fields.js';

/** Body of PATCH /api/v1/admin/orgs/{orgId}/: the fields to change; supportEmails replaces the list. */
export class UpdateOrgDto {
  @IfPresent()
  @OrgName()
  name?: string;

  @IfPresent()
  @KycDomain()
  kycDomain?: string;

  @IfPresent()
  @Plan()
  plan?: OrgPlan;

  @IfPresent()
  @SupportEmails()
  supportEmails?: string[];
}
