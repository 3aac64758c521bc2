import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';

import { AdminActor } from '../audit/admin-actor.decorator.js';
import { OrgIdPipe } from '../common/params.js';
import { AdminOnly } from '../auth/decorators.js';
import { ApproveKycDto, RejectKycDto, RequestInformationDto } from './dto/review.dto.js';
import { KycService } from './kyc.service.js';

/** The operators' KYC decisions (admin surface); each is audited. */
@Controller('admin/orgs/:orgId/users/:orgUserId/kyc')
@AdminOnly()
export class KycReviewController {
  constructor(private readonly kyc: KycService) {}

  @Post('approve')
  @HttpCode(200)
  approve(
    @AdminActor() actor: string,
    @Param('orgId', OrgIdPipe) orgId: number,
    @Param('orgUserId') orgUserId: string,
    @Body() body: ApproveKycDto,
  ) {
    return this.kyc.review(actor, orgId, orgUserId, { step: 'approve', note: body.note });
  }

  @Post('reject')
  @HttpCode(200)
  reject(
    @AdminActor() actor: string,
    @Param('orgId', OrgIdPipe) orgId: number,
    @Param('orgUserId') orgUserId: string,
    @Body() body: RejectKycDto,
  ) {
    return this.kyc.review(actor, orgId, orgUserId, { step: 'reject', reason: body.reason });
  }

  @Post('request-information')
  @HttpCode(200)
  requestInformation(
    @AdminActor() actor: string,
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
