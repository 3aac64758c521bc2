// The client's `dashboard` group: sign-in links to the organisation dashboard, and ending its sessions.
import type { RequestOptions } from '../transport.js';
import type { CreateDashboardSessionParams, DashboardLink, DashboardSessionsEnded } from '../types.js';
import { path, type Call } from './call.js';

export class DashboardResource {
  constructor(private readonly call: Call) {}

  /**
   * A single-use link that signs a person into the organisation's dashboard; give `url` to them at once
   * (it must be opened before `expiresAt`). Without permissions the session only reads; without pages it
   * sees every page the caller may read. Needs BASE_MODULE:WRITE with a token, and the scopes of each
   * permission and page asked for (docs/dashboard.md#what-a-session-may-do).
   */
  createSession(params: CreateDashboardSessionParams = {}, options?: RequestOptions): Promise<DashboardLink> {
    const body = {
      ...(params.permissions === undefined ? {} : { permissions: params.permissions }),
      ...(params.pages === undefined ? {} : { pages: params.pages }),
      ...(params.lifetimeSeconds === undefined ? {} : { lifetimeSeconds: params.lifetimeSeconds }),
    };
    return this.call(
      {
        method: 'POST',
        path: path('dashboard', 'sessions'),
        body: { kind: 'json', value: body },
        idempotent: false,
      },
      options,
    );
  }

  /** Ends every dashboard session of the organisation and voids the links not opened yet. */
  endAllSessions(options?: RequestOptions): Promise<DashboardSessionsEnded> {
    return this.call(
      { method: 'POST', path: path('dashboard', 'sessions', 'revoke'), idempotent: true },
      options,
    );
  }
}
