// Organisations (/console/orgs): the list with a search, creating one (ADMIN), an organisation's page, and
// its changes: name, domain, plan and support e-mails (ADMIN) and its policy (TRADING_OPS), the policy
// first previewed with the Actions events the change will emit. Each through the admin api's service, as
// the operator, with the admin route's role.
import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';

import { auditActor } from '../../audit/admin-actor.decorator.js';
import { RequireRole } from '../../auth/decorators.js';
import { OrgIdPipe } from '../../common/params.js';
import { ApiKeysService } from '../../credentials/api-keys.service.js';
import { OAuthClientsService } from '../../credentials/oauth-clients.service.js';
import { CreateOrgDto } from '../../orgs/dto/create-org.dto.js';
import { UpdateOrgDto } from '../../orgs/dto/update-org.dto.js';
import { OrgsService } from '../../orgs/orgs.service.js';
import { UpdatePolicyDto } from '../../policy/dto/update-policy.dto.js';
import { planPolicyChange, PolicyService } from '../../policy/policy.service.js';
import { page, redirectTo } from '../../web/web-answer.js';
import { WebPages } from '../../web/web-pages.decorator.js';
import { type ConsoleContext, OperatorConsole } from '../../operators/console-context.js';
import { ConsoleDoneQuery, ConsoleOrgsQuery } from '../dto/console-queries.js';
import { type FormBody, formInput, formList, formMap, formNumber, formText } from '../../web/forms.js';
import { NewOrgPage, OrgPage, OrgsPage } from '../views/orgs.js';
import { POLICY_FORM_FIELDS, PolicyPreviewPage } from '../views/org-policy.js';

/** The policy form's fields as the admin api's policy body. */
function policyInput(body: FormBody) {
  return formInput(UpdatePolicyDto, {
    enabledAssets: formList(body, 'enabledAssets')?.map((code) => code.toUpperCase()),
    quoteLimit: formMap(body, 'quoteLimit'),
    totalLimit: formMap(body, 'totalLimit'),
    totalExposure: formMap(body, 'totalExposure'),
    assetExposure: formMap(body, 'assetExposure'),
    commissionRate: formNumber(body, 'commissionRate'),
    vatRate: formNumber(body, 'vatRate'),
  });
}

@WebPages()
@Controller('console/orgs')
export class ConsoleOrgsController {
  constructor(
    private readonly orgs: OrgsService,
    private readonly policy: PolicyService,
    private readonly apiKeys: ApiKeysService,
    private readonly clients: OAuthClientsService,
  ) {}

  @Get()
  @RequireRole('SUPPORT')
  async list(@OperatorConsole() ctx: ConsoleContext, @Query() query: ConsoleOrgsQuery) {
    const { q: search, ...paging } = query;
    const q = search?.trim();
    // An id goes straight to its organisation.
    if (q !== undefined && /^[1-9][0-9]{0,9}$/.test(q) && Number(q) <= 2147483647) {
      return redirectTo(`/console/orgs/${q}`);
    }
    const found = await this.orgs.list(paging, q || undefined);
    return page(<OrgsPage ctx={ctx} query={query} orgs={found} />);
  }

  @Get('new')
  @RequireRole('ADMIN')
  showNew(@OperatorConsole() ctx: ConsoleContext) {
    return page(<NewOrgPage ctx={ctx} />);
  }

  @Post()
  @RequireRole('ADMIN')
  async create(@OperatorConsole() ctx: ConsoleContext, @Body() body: FormBody) {
    const input = await formInput(CreateOrgDto, {
      name: formText(body, 'name'),
      kycDomain: formText(body, 'kycDomain'),
      plan: formText(body, 'plan'),
      environment: formText(body, 'environment'),
      supportEmails: formList(body, 'supportEmails'),
    });
    const org = await this.orgs.create(auditActor(ctx.operator), input);
    return redirectTo(`/console/orgs/${org.orgId}?done=created`);
  }

  @Get(':orgId')
  @RequireRole('SUPPORT')
  async show(
    @OperatorConsole() ctx: ConsoleContext,
    @Param('orgId', OrgIdPipe) orgId: number,
    @Query() query: ConsoleDoneQuery,
  ) {
    const [org, keys, clients] = await Promise.all([
      this.orgs.get(orgId),
      this.apiKeys.list(orgId),
      this.clients.list(orgId),
    ]);
    return page(
      <OrgPage ctx={ctx} org={org} apiKeys={keys.items} clients={clients.items} done={query.done} />,
    );
  }

  @Post(':orgId')
  @RequireRole('ADMIN')
  async update(
    @OperatorConsole() ctx: ConsoleContext,
    @Param('orgId', OrgIdPipe) orgId: number,
    @Body() body: FormBody,
  ) {
    const input = await formInput(UpdateOrgDto, {
      name: formText(body, 'name'),
      kycDomain: formText(body, 'kycDomain'),
      plan: formText(body, 'plan'),
      supportEmails: formList(body, 'supportEmails'),
    });
    await this.orgs.update(auditActor(ctx.operator), orgId, input);
    return redirectTo(`/console/orgs/${orgId}?done=updated`);
  }

  /** Writes nothing: what the policy form would change, and the events it would emit. */
  @Post(':orgId/policy/preview')
  @RequireRole('TRADING_OPS')
  async previewPolicy(
    @OperatorConsole() ctx: ConsoleContext,
    @Param('orgId', OrgIdPipe) orgId: number,
    @Body() body: FormBody,
  ) {
    const [org, input] = await Promise.all([this.orgs.get(orgId), policyInput(body)]);
    const current = await this.orgs.policyOf(orgId);
    const change = planPolicyChange(current, input);
    const sent: Record<string, string> = {};
    for (const field of POLICY_FORM_FIELDS) {
      const value = body?.[field];
      if (typeof value === 'string') sent[field] = value;
    }
    return page(<PolicyPreviewPage ctx={ctx} org={org} change={change} sent={sent} />);
  }

  @Post(':orgId/policy')
  @RequireRole('TRADING_OPS')
  async updatePolicy(
    @OperatorConsole() ctx: ConsoleContext,
    @Param('orgId', OrgIdPipe) orgId: number,
    @Body() body: FormBody,
  ) {
    await this.policy.update(auditActor(ctx.operator), orgId, await policyInput(body));
    return redirectTo(`/console/orgs/${orgId}?done=policy`);
  }
}
