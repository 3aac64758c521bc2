import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';

import { type AuditActor, AdminActor } from '../audit/admin-actor.decorator.js';
import { OrgIdPipe } from '../common/params.js';
import { RequireRole } from '../auth/decorators.js';
import { ApproveKycDto, RejectKycDto, RequestInformationDto } from './dto/review.dto.js';
import { KycService } from './kyc.service.js';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/route.decorators.js';

/** The operators' KYC decisions (admin surface); each is audited. */
@ApiTags('Operator: KYC review')
@Controller('admin/orgs/:orgId/users/:orgUserId/kyc')
export class KycReviewController {
  constructor(private readonly kyc: KycService) {}

  @ApiRoute({
    summary: "Approve a user's KYC",
    description:
      'Completes the KYC of a user whose documents and form are in; the user becomes ACTIVE. Audited; the organisation gets a KYC_COMPLETED event.',
    data: 'KycStatus',
    errors: [404, 409],
  })
  @Post('approve')
  @HttpCode(200)
  @RequireRole('KYC_REVIEWER')
  approve(
    @AdminActor() actor: AuditActor,
    @Param('orgId', OrgIdPipe) orgId: number,
    @Param('orgUserId') orgUserId: string,
    @Body() body: ApproveKycDto,
  ) {
    return this.kyc.review(actor, orgId, orgUserId, { step: 'approve', note: body.note });
  }

  @ApiRoute({
    summary: "Reject a user's KYC",
    description:
      'Rejects the KYC with a reason the organisation sees. Audited; the organisation gets a KYC_REJECTED event.',
    data: 'KycStatus',
    errors: [404, 409],
  })
  @Post('reject')
  @HttpCode(200)
  @RequireRole('KYC_REVIEWER')
  reject(
    @AdminActor() actor: AuditActor,
    @Param('orgId', OrgIdPipe) orgId: number,
    @Param('orgUserId') orgUserId: string,
    @Body() body: RejectKycDto,
  ) {
    return this.kyc.review(actor, orgId, orgUserId, { step: 'reject', reason: body.reason });
  }

  @ApiRoute({
    summary: 'Ask for more information',
    description:
      'Asks the organisation for more from the user; the message shows in its KYC view. Audited; the organisation gets a KYC_RFI event.',
    data: 'KycStatus',
    errors: [404, 409],
  })
  @Post('request-information')
  @HttpCode(200)
  @RequireRole('KYC_REVIEWER')
  requestInformation(
    @AdminActor() actor: AuditActor,
    @Param('orgId', OrgIdPipe) orgId: number,
    @Param('orgUserId') orgUserId: string,
    @Body() body: RequestInformationDto,
  ) {
    return this.kyc.review(actor, orgId, orgUserId, {
      step: 'request-information',
      message: body.message,
    });
  }
}
