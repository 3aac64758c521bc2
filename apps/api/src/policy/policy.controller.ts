import { Body, Controller, Param, Patch } from '@nestjs/common';

import { type AuditActor, AdminActor } from '../audit/admin-actor.decorator.js';
import { OrgIdPipe } from '../common/params.js';
import { RequireRole } from '../auth/decorators.js';
import { UpdatePolicyDto } from './dto/update-policy.dto.js';
import { PolicyService } from './policy.service.js';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/route.decorators.js';

@ApiTags('Operator: Trading')
@Controller('admin/orgs/:orgId/policy')
export class PolicyController {
  constructor(private readonly policy: PolicyService) {}

  @ApiRoute({
    summary: "Update an organisation's policy",
    description:
      'Replaces each policy field sent, whole: enabled assets, limit maps, commission and VAT rates. Audited.',
    data: 'AdminOrganisation',
    errors: [404],
  })
  @Patch()
  @RequireRole('TRADING_OPS')
  update(
    @AdminActor() actor: AuditActor,
    @Param('orgId', OrgIdPipe) orgId: number,
    @Body() body: UpdatePolicyDto,
  ) {
    return this.policy.update(actor, orgId, body);
  }
}
