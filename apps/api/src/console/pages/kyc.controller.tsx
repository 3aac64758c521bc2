// KYC review (docs/console.md#kyc-review): the queue, a user's file, and the three decisions, each through
// KycService.review as the admin api's routes (kyc/kyc-review.controller.ts) take them, so the event, the
// review and the audit entry (naming the operator) are the same. A form with a bad text comes back with
// the error and what was typed; nothing is written.
import { Body, Controller, Get, Param, ParseUUIDPipe, Post, Query, Res } from '@nestjs/common';
import type { ClassConstructor } from 'class-transformer';
import type { FastifyReply } from 'fastify';

import { type AuditActor, AdminActor } from '../../audit/admin-actor.decorator.js';
import { RequireRole } from '../../auth/decorators.js';
import { badRequest } from '../../common/errors.js';
import { OrgIdPipe } from '../../common/params.js';
import { ApproveKycDto, RejectKycDto, RequestInformationDto } from '../../kyc/dto/review.dto.js';
import type { KycDecision } from '../../kyc/kyc.service.js';
import { KycService } from '../../kyc/kyc.service.js';
import { ORG_USER_ID, ORG_USER_ID_RULE } from '../../users/dto/create-user.dto.js';
import { OrgsService } from '../../orgs/orgs.service.js';
import { checkForm } from '../../web/forms.js';
import { page, redirectTo } from '../../web/web-answer.js';
import { WebFiles, WebPages } from '../../web/web-pages.decorator.js';
import { type ConsoleContext, OperatorConsole } from '../../operators/console-context.js';
import { sendDocument, servedType } from '../document-answer.js';
import { KYC_QUEUE } from '../nav.js';
import { KycFilePage } from '../views/kyc-file.js';
import { KycQueuePage } from '../views/kyc-queue.js';

const PAGE_SIZE = 50;

/** A queue page's start: `<expiresAt in ms>.<user id>` of the last row of the page before. */
function parseAfter(value: unknown): { expiresAt: Date; userId: string } | null {
  const match = typeof value === 'string' ? /^(\d{1,15})\.(\d{1,19})$/.exec(value) : null;
  const [, ms, userId] = match ?? [];
  return ms !== undefined && userId !== undefined ? { expiresAt: new Date(Number(ms)), userId } : null;
}

/** The search's start of an orgUserId (`q`), or undefined for none; 400 naming the rule when it cannot be one. */
function parsePrefix(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !ORG_USER_ID.test(value))
    throw badRequest(`q must be the start of an orgUserId: ${ORG_USER_ID_RULE}`);
  return value;
}

const DONE: Readonly<Record<string, string>> = {
  approve: 'approved',
  reject: 'rejected',
  'request-information': 'sent back with a request for information',
};

/** The decision a form asks for, with its DTO and the field its text is in. */
const DECISIONS = {
  approve: { dto: ApproveKycDto, field: 'note' },
  reject: { dto: RejectKycDto, field: 'reason' },
  'request-information': { dto: RequestInformationDto, field: 'message' },
} as const;

type Step = keyof typeof DECISIONS;

@WebPages()
@Controller('console/kyc')
export class ConsoleKycController {
  constructor(
    private readonly kyc: KycService,
    private readonly orgs: OrgsService,
  ) {}

  @Get()
  @RequireRole('KYC_REVIEWER')
  async queue(
    @OperatorConsole() ctx: ConsoleContext,
    @Query('after') after: unknown,
    @Query('decided') decided: unknown,
    @Query('user') user: unknown,
    @Query('q') q: unknown,
  ) {
    const start = parseAfter(after);
    const prefix = parsePrefix(q);
    const { items, total } = await this.kyc.reviewQueue(PAGE_SIZE, start, prefix);
    const last = items.at(-1);
    const next =
      items.length === PAGE_SIZE && last ? `${last.expiresAt.getTime()}.${last.userId}` : undefined;
    const notice =
      typeof decided === 'string' && DONE[decided] && typeof user === 'string'
        ? `The KYC of ${user.slice(0, 200)} is ${DONE[decided]}.`
        : undefined;
    return page(
      <KycQueuePage
        ctx={ctx}
        items={items}
        total={total}
        search={prefix}
        pages={{
          path: KYC_QUEUE,
          params: { q: prefix },
          param: 'after',
          cursor: start ? String(after) : undefined,
          nextCursor: next,
        }}
        notice={notice}
      />,
    );
  }

  @Get(':orgId/:orgUserId')
  @RequireRole('KYC_REVIEWER')
  async file(
    @OperatorConsole() ctx: ConsoleContext,
    @Param('orgId', OrgIdPipe) orgId: number,
    @Param('orgUserId') orgUserId: string,
  ) {
    return this.filePage(ctx, orgId, orgUserId);
  }

  @Post(':orgId/:orgUserId/approve')
  @RequireRole('KYC_REVIEWER')
  approve(
    @OperatorConsole() ctx: ConsoleContext,
    @AdminActor() actor: AuditActor,
    @Param('orgId', OrgIdPipe) orgId: number,
    @Param('orgUserId') orgUserId: string,
    @Body() body: Record<string, unknown> | undefined,
  ) {
    return this.decide(ctx, actor, orgId, orgUserId, 'approve', body);
  }

  @Post(':orgId/:orgUserId/reject')
  @RequireRole('KYC_REVIEWER')
  reject(
    @OperatorConsole() ctx: ConsoleContext,
    @AdminActor() actor: AuditActor,
    @Param('orgId', OrgIdPipe) orgId: number,
    @Param('orgUserId') orgUserId: string,
    @Body() body: Record<string, unknown> | undefined,
  ) {
    return this.decide(ctx, actor, orgId, orgUserId, 'reject', body);
  }

  @Post(':orgId/:orgUserId/request-information')
  @RequireRole('KYC_REVIEWER')
  requestInformation(
    @OperatorConsole() ctx: ConsoleContext,
    @AdminActor() actor: AuditActor,
    @Param('orgId', OrgIdPipe) orgId: number,
    @Param('orgUserId') orgUserId: string,
    @Body() body: Record<string, unknown> | undefined,
  ) {
    return this.decide(ctx, actor, orgId, orgUserId, 'request-information', body);
  }

  private async decide(
    ctx: ConsoleContext,
    actor: AuditActor,
    orgId: number,
    orgUserId: string,
    step: Step,
    body: Record<string, unknown> | undefined,
  ) {
    const { dto, field } = DECISIONS[step];
    const raw = body?.[field];
    // An empty optional note is no note.
    const text = typeof raw === 'string' && (raw !== '' || step !== 'approve') ? raw : undefined;
    const checked = await checkForm(
      dto as ClassConstructor<object>,
      text === undefined ? {} : { [field]: text },
    );
    if (!checked.ok) {
      const errors = Object.values(checked.errors).flatMap((messages) => messages.slice(0, 1));
      const typed = typeof raw === 'string' ? { [field]: raw.slice(0, 2000) } : {};
      return this.filePage(ctx, orgId, orgUserId, { errors, typed, status: 400 });
    }
    const decision: KycDecision =
      step === 'approve'
        ? { step, note: text }
        : step === 'reject'
          ? { step, reason: text ?? '' }
          : { step, message: text ?? '' };
    await this.kyc.review(actor, orgId, orgUserId, decision);
    return redirectTo(
      `${KYC_QUEUE}?decided=${step}&user=${encodeURIComponent(`${orgUserId} (organisation ${orgId})`)}`,
    );
  }

  private async filePage(
    ctx: ConsoleContext,
    orgId: number,
    orgUserId: string,
    form?: { errors: string[]; typed: Record<string, string>; status: number },
  ) {
    const [kyc, org, heads, history] = await Promise.all([
      this.kyc.get(orgId, orgUserId),
      this.orgs.get(orgId),
      this.kyc.documentHeads(orgId, orgUserId),
      this.kyc.history(orgId, orgUserId),
    ]);
    const documents = kyc.documents.map((view) => ({
      view,
      served: servedType({ contentType: view.contentType, content: heads.get(view.id) ?? Buffer.alloc(0) }),
    }));
    const submittedAt =
      kyc.expiresAt === null ? null : await this.kyc.submittedAt(orgId, orgUserId, new Date(kyc.expiresAt));
    return page(
      <KycFilePage
        ctx={ctx}
        orgName={org.name}
        kyc={kyc}
        documents={documents}
        submittedAt={submittedAt}
        history={history}
        errors={form?.errors}
        typed={form?.typed}
      />,
      form?.status,
    );
  }
}

/** A document's bytes, for the file page's <img>, its PDF pages (public/kyc-pdf.mjs) and its download links. */
@WebFiles()
@Controller('console/kyc')
export class ConsoleKycDocumentsController {
  constructor(private readonly kyc: KycService) {}

  @Get(':orgId/:orgUserId/documents/:documentId')
  @RequireRole('KYC_REVIEWER')
  async document(
    @Param('orgId', OrgIdPipe) orgId: number,
    @Param('orgUserId') orgUserId: string,
    @Param('documentId', new ParseUUIDPipe()) documentId: string,
    @Query('download') download: unknown,
    @Res() reply: FastifyReply,
  ) {
    const document = await this.kyc.document(orgId, orgUserId, documentId);
    return sendDocument(reply, document, download !== undefined);
  }
}
