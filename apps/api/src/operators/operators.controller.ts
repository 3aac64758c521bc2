import { Body, Controller, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { type AuditActor, AdminActor } from '../audit/admin-actor.decorator.js';
import { CurrentCaller, RequireRole } from '../auth/decorators.js';
import type { OperatorCaller } from '../auth/principal.js';
import { UuidPipe } from '../common/params.js';
import { ApiRoute } from '../openapi/route.decorators.js';
import { CreateOperatorDto, UpdateOperatorDto } from './dto/operator.dto.js';
import { OperatorsService } from './operators.service.js';

/** Operator accounts, for ADMINs (docs/operators.md#accounts). */
@ApiTags('Operator: Operators')
@Controller('admin/operators')
export class OperatorsController {
  constructor(private readonly operators: OperatorsService) {}

  @ApiRoute({
    summary: 'Create an operator',
    description:
      "Creates an operator with a role, pending until they enrol with the answer's setupToken (shown once). " +
      'ADMIN_TOKEN may create the first ADMIN while none exists, and nothing else. Audited.',
    data: 'CreatedOperator',
    errors: [403, 409],
  })
  @Post()
  @HttpCode(200)
  @RequireRole('ADMIN', { stepUp: true, bootstrap: true })
  create(@CurrentCaller() caller: OperatorCaller, @Body() body: CreateOperatorDto) {
    return this.operators.create(caller, body);
  }

  @ApiRoute({
    summary: 'List operators',
    description: 'Every operator, by e-mail, with their role and status.',
    data: 'OperatorList',
    errors: [403],
  })
  @Get()
  @RequireRole('ADMIN')
  list() {
    return this.operators.list();
  }

  @ApiRoute({
    summary: 'Get an operator',
    description: 'One operator, by id.',
    data: 'Operator',
    errors: [403, 404],
  })
  @Get(':id')
  @RequireRole('ADMIN')
  get(@Param('id', UuidPipe) id: string) {
    return this.operators.get(id);
  }

  @ApiRoute({
    summary: 'Update an operator',
    description:
      'Changes the name or the role sent; the last ADMIN cannot be demoted. A role change holds on the ' +
      "operator's next request. Audited.",
    data: 'Operator',
    errors: [403, 404, 409],
  })
  @Patch(':id')
  @RequireRole('ADMIN', { stepUp: true })
  update(
    @AdminActor() actor: AuditActor,
    @Param('id', UuidPipe) id: string,
    @Body() body: UpdateOperatorDto,
  ) {
    return this.operators.update(actor, id, body);
  }

  @ApiRoute({
    summary: 'Disable an operator',
    description:
      'The operator can no longer sign in, and their sessions and personal tokens stop working at once; ' +
      'the last ADMIN cannot be disabled. Audited.',
    data: 'Operator',
    errors: [403, 404, 409],
  })
  @Post(':id/disable')
  @HttpCode(200)
  @RequireRole('ADMIN', { stepUp: true })
  disable(@AdminActor() actor: AuditActor, @Param('id', UuidPipe) id: string) {
    return this.operators.disable(actor, id);
  }

  @ApiRoute({
    summary: "Reset an operator's enrolment",
    description:
      'For a lost password or authenticator: clears both, ends their sessions and tokens, and answers a new ' +
      'setupToken (shown once) to enrol again. Audited.',
    data: 'CreatedOperator',
    errors: [403, 404, 409],
  })
  @Post(':id/reset')
  @HttpCode(200)
  @RequireRole('ADMIN', { stepUp: true })
  reset(@AdminActor() actor: AuditActor, @Param('id', UuidPipe) id: string) {
    return this.operators.resetEnrolment(actor, id);
  }
}
