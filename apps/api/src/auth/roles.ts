// Which operator role may call which admin route (docs/operators.md#roles): a route names the least role
// it needs; ADMIN holds every role, and every role holds SUPPORT (reading), as READWRITE holds READ.
import { OPERATOR_ROLES, type OperatorRole } from '@svc/db';

export { OPERATOR_ROLES, type OperatorRole };

/** Whether an operator holding `held` may call a route that needs `required`. */
export function grantsRole(held: OperatorRole, required: OperatorRole): boolean {
  return held === 'ADMIN' || required === 'SUPPORT' || held === required;
}

/** The roles that may call a route needing `required`, for errors and the OpenAPI document. */
export function rolesGranting(required: OperatorRole): OperatorRole[] {
  return OPERATOR_ROLES.filter((role) => grantsRole(role, required));
}

export function isOperatorRole(value: unknown): value is OperatorRole {
  return typeof value === 'string' && (OPERATOR_ROLES as readonly string[]).includes(value);
}
