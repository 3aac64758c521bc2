// What a console page's handler gets once the authentication service let its operator in (a console session
// and the role its @RequireRole names: auth/authentication.service.ts).
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

import type { AuthenticatedRequest, OperatorPrincipal } from '../auth/principal.js';

/** The form field that carries a fresh TOTP code to a step-up route. */
export const STEP_UP_FIELD = 'code';

/** The signed-in operator, the CSRF token for the page's forms and whether they are stepped up. */
export interface ConsoleContext {
  readonly operator: OperatorPrincipal;
  readonly csrf: string;
  /** Until when sensitive forms need no code; null when they need one. */
  readonly stepUpUntil: Date | null;
}

export type ConsoleRequest = AuthenticatedRequest & { console?: ConsoleContext };

/** The handler's ConsoleContext. */
export const OperatorConsole = createParamDecorator(
  (_data: unknown, context: ExecutionContext): ConsoleContext => {
    const value = context.switchToHttp().getRequest<ConsoleRequest>().console;
    if (!value) throw new Error('@OperatorConsole() on a route that is not a console page (@RequireRole)');
    return value;
  },
);
