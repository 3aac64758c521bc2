// What a dashboard page's handler gets once the authentication service let its session in (the page and
// the permission its @DashboardRead and @DashboardWrite name: auth/authentication.service.ts).
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { OrgEnvironment } from '@svc/db';
import type { FastifyRequest } from 'fastify';

import type { DashboardSessionInfo } from './dashboard-sessions.service.js';

/**
 * The signed-in session, its organisation's name and environment (a sandbox one's pages say so), and the
 * CSRF token for the page's forms.
 */
export interface DashboardContext {
  readonly session: DashboardSessionInfo;
  readonly orgName: string;
  readonly environment: OrgEnvironment;
  readonly csrf: string;
}

export type DashboardRequest = FastifyRequest & { dashboard?: DashboardContext };

/** The handler's DashboardContext. */
export const Dashboard = createParamDecorator(
  (_data: unknown, context: ExecutionContext): DashboardContext => {
    const value = context.switchToHttp().getRequest<DashboardRequest>().dashboard;
    if (!value) throw new Error('@Dashboard() on a route that is not a dashboard page (@DashboardRead)');
    return value;
  },
);
