// Who acted, for the audit log: the operator the guard authenticated from their session or personal token
// (docs/operators.md#the-audit-log). Nothing the request says about itself (the old X-Admin-Actor header,
// the CLI's --actor) is read.
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

import type { AuthenticatedRequest, OperatorCaller } from '../auth/principal.js';

/** What the audit log records of who acted. */
export interface AuditActor {
  /** The operator; null when the service itself acted (the demo, the bootstrap with ADMIN_TOKEN). */
  readonly operatorId: string | null;
  /** How the entry reads: the operator's e-mail, or `system:<what>`. */
  readonly label: string;
}

/** The service itself acting, e.g. systemActor('npm start'). */
export function systemActor(what: string): AuditActor {
  return { operatorId: null, label: `system:${what}` };
}

/** An organisation's dashboard session acting (docs/dashboard.md): the organisation's staff, not an operator. */
export function dashboardActor(sessionId: string): AuditActor {
  return { operatorId: null, label: `dashboard session ${sessionId}` };
}

/** The audit actor of an operator route's caller. */
export function auditActor(caller: OperatorCaller): AuditActor {
  return caller.kind === 'bootstrap'
    ? systemActor('ADMIN_TOKEN bootstrap')
    : { operatorId: caller.operatorId, label: caller.email };
}

/** The audit actor of the operator calling this route (which must declare @RequireRole). */
export const AdminActor = createParamDecorator((_data: unknown, context: ExecutionContext): AuditActor => {
  const caller = context.switchToHttp().getRequest<AuthenticatedRequest>().operator;
  if (!caller) throw new Error('@AdminActor() on a route without @RequireRole()');
  return auditActor(caller);
});
