// Operators (/console/operators, ADMIN): the accounts, creating one (the answer page shows its setup token
// once), changing a role, disabling and resetting an enrolment; each write with a fresh authenticator code,
// as the admin api's routes, through OperatorsService as the operator.
import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';

import { auditActor } from '../../audit/admin-actor.decorator.js';
import { RequireRole } from '../../auth/decorators.js';
import { UuidPipe } from '../../common/params.js';
import { CreateOperatorDto, UpdateOperatorDto } from '../../operators/dto/operator.dto.js';
import { OperatorsService } from '../../operators/operators.service.js';
import { page, redirectTo } from '../../web/web-answer.js';
import { WebPages } from '../../web/web-pages.decorator.js';
import { type ConsoleContext, OperatorConsole } from '../../operators/console-context.js';
import { ConsoleDoneQuery } from '../dto/console-queries.js';
import { type FormBody, formInput, formText } from '../../web/forms.js';
import { OperatorsPage, SetupTokenPage } from '../views/operators.js';

@WebPages()
@Controller('console/operators')
export class ConsoleOperatorsController {
  constructor(private readonly operators: OperatorsService) {}

  @Get()
  @RequireRole('ADMIN')
  async list(@OperatorConsole() ctx: ConsoleContext, @Query() query: ConsoleDoneQuery) {
    const found = await this.operators.list();
    return page(<OperatorsPage ctx={ctx} operators={found.items} done={query.done} />);
  }

  @Post()
  @RequireRole('ADMIN', { stepUp: true })
  async create(@OperatorConsole() ctx: ConsoleContext, @Body() body: FormBody) {
    const input = await formInput(CreateOperatorDto, {
      email: formText(body, 'email'),
      name: formText(body, 'name'),
      role: formText(body, 'role'),
    });
    const created = await this.operators.createAs(auditActor(ctx.operator), input);
    return page(<SetupTokenPage ctx={ctx} operator={created} what="created" />);
  }

  @Post(':id/role')
  @RequireRole('ADMIN', { stepUp: true })
  async changeRole(
    @OperatorConsole() ctx: ConsoleContext,
    @Param('id', UuidPipe) id: string,
    @Body() body: FormBody,
  ) {
    const input = await formInput(UpdateOperatorDto, { role: formText(body, 'role') });
    await this.operators.update(auditActor(ctx.operator), id, input);
    return redirectTo('/console/operators?done=role');
  }

  @Post(':id/disable')
  @RequireRole('ADMIN', { stepUp: true })
  async disable(@OperatorConsole() ctx: ConsoleContext, @Param('id', UuidPipe) id: string) {
    await this.operators.disable(auditActor(ctx.operator), id);
    return redirectTo('/console/operators?done=disabled');
  }

  @Post(':id/reset')
  @RequireRole('ADMIN', { stepUp: true })
  async reset(@OperatorConsole() ctx: ConsoleContext, @Param('id', UuidPipe) id: string) {
    const again = await this.operators.resetEnrolment(auditActor(ctx.operator), id);
    return page(<SetupTokenPage ctx={ctx} operator={again} what="reset" />);
  }
}
