// The client's `dashboard` group: sign-in links to the organisation dashboard, and ending its sessions.
import type { RequestOptions } from '../transport.js';
import type { CreateDashboardSessionParams, DashboardLink, DashboardSessionsEnded } from '../types.js';
import { path, type Call } from './call.js';

export class DashboardResource {
  constructor(private readonly call: Call) {}

  /**
   * A single-use link that signs a person into the organisation's dashboard; give `url` to them at once
   * (it must be opened before `expiresAt`). Without permissions the session only reads. Needs
   * BASE_MODULE:WRITE with a token.
   */
  createSession(params: CreateDashboardSessionParams = {}, options?: RequestOptions): Promise<DashboardLink> {
    const body = {
      ...(params.permissions === undefined ? {} : { permissions: params.permissions }),
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
