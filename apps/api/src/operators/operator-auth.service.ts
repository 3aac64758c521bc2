// The operators' credentials (docs/operators.md), for the authentication service
// (auth/authentication.service.ts): a personal token (Authorization: Bearer op_…) or a console session,
// looked up afresh on every request, so that a revocation or a role change holds at once on every instance;
// then the route's role and step-up rule. ADMIN_TOKEN is taken only by the route that creates the first
// ADMIN, and only while there is none.
import { Inject, Injectable } from '@nestjs/common';

import type { OperatorRule } from '../auth/decorators.js';
import type { OperatorCaller, OperatorPrincipal } from '../auth/principal.js';
import { grantsRole, rolesGranting } from '../auth/roles.js';
import { AppError, forbidden, unauthenticated } from '../common/errors.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { constantTimeEqual } from '../credentials/secrets.js';
import { OPERATOR_TOKEN_PREFIX, sha256Hex } from './operator-secrets.js';
import { OperatorsRepository } from './operators.repository.js';

/** A token's last use is written at most this often (a session's, at most every tenth of its idle time). */
const TOUCH_EVERY_MS = 60_000;

export const STEP_UP_PATH = '/api/v1/admin/session/step-up';

@Injectable()
export class OperatorAuthService {
  constructor(
    private readonly operators: OperatorsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The caller an Authorization header names on an operator route declaring `rule` (a personal token, or
   * ADMIN_TOKEN on the bootstrap route), or the 401/403 that refuses them.
   */
  async fromAuthorization(header: string, rule: OperatorRule): Promise<OperatorCaller> {
    const token = /^Bearer ([^\s]+)$/.exec(header)?.[1];
    if (token === undefined) throw unauthenticated('Authorization must be "Bearer <personal token>"');
    if (!token.startsWith(OPERATOR_TOKEN_PREFIX) && this.isAdminToken(token)) return this.bootstrap(rule);
    const principal = await this.fromToken(token);
    this.authorize(principal, rule);
    return principal;
  }

  /** The role and step-up checks of an operator who authenticated. */
  authorize(principal: OperatorPrincipal, rule: OperatorRule): void {
    if (!grantsRole(principal.role, rule.role)) {
      throw forbidden(
        `this needs the ${rule.role} role (held by ${rolesGranting(rule.role).join(', ')}); you are ${principal.role}`,
      );
    }
    if (rule.stepUp && !this.steppedUp(principal)) throw this.stepUpRequired();
  }

  /** Whether the principal showed a second factor within the step-up window. */
  steppedUp(principal: OperatorPrincipal, now = Date.now()): boolean {
    return (
      principal.secondFactorAt !== null && now - principal.secondFactorAt.getTime() <= this.stepUpWindowMs()
    );
  }

  /** How long a second factor counts as a step-up (OPERATOR_STEP_UP_MINUTES). */
  stepUpWindowMs(): number {
    return this.config.operators.stepUpMinutes * 60_000;
  }

  /** RFC 9470's step-up challenge: authenticated, but not recently enough with a second factor. */
  stepUpRequired(): AppError {
    const minutes = this.config.operators.stepUpMinutes;
    return new AppError(
      'unauthenticated',
      `step_up_required: this action needs your second factor within the last ${minutes} minutes: ` +
        `POST ${STEP_UP_PATH} with a TOTP code (the CLI: --otp <code>), then retry`,
      {
        'www-authenticate': `Bearer error="insufficient_user_authentication", error_description="a second factor is required", max_age=${minutes * 60}`,
      },
    );
  }

  private isAdminToken(token: string): boolean {
    return this.config.adminToken !== null && constantTimeEqual(token, this.config.adminToken);
  }

  private async bootstrap(rule: OperatorRule): Promise<OperatorCaller> {
    if (!rule.bootstrap) {
      throw unauthenticated(
        'ADMIN_TOKEN only bootstraps the first ADMIN (POST /api/v1/admin/operators); ' +
          'use your personal token or a console session (docs/operators.md)',
      );
    }
    if (await this.operators.adminExists(this.operators.manager)) {
      throw unauthenticated(
        'ADMIN_TOKEN is refused: an ADMIN exists; sign in, or use a personal token (docs/operators.md)',
      );
    }
    return { kind: 'bootstrap' };
  }

  private async fromToken(token: string): Promise<OperatorPrincipal> {
    const now = new Date();
    const live = token.startsWith(OPERATOR_TOKEN_PREFIX)
      ? await this.operators.findLiveToken(sha256Hex(token), now)
      : null;
    if (!live) {
      throw unauthenticated('the personal token is invalid, expired or revoked', {
        'www-authenticate': 'Bearer error="invalid_token"',
      });
    }
    if (!live.lastUsedAt || now.getTime() - live.lastUsedAt.getTime() >= TOUCH_EVERY_MS) {
      await this.operators.touchToken(live.id, now);
    }
    return principalOf(live.operator, 'token', live.id, live.secondFactorAt);
  }

  /** The operator of a console session cookie's value, or the 401 when the session has ended. */
  async fromSession(token: string): Promise<OperatorPrincipal> {
    const now = new Date();
    const idleMs = this.config.operators.sessionIdleMinutes * 60_000;
    const live = await this.operators.findLiveSession(
      sha256Hex(token),
      now,
      new Date(now.getTime() - idleMs),
    );
    if (!live) throw unauthenticated('the console session has ended: sign in again');
    if (now.getTime() - live.lastSeenAt.getTime() >= Math.min(TOUCH_EVERY_MS, idleMs / 10)) {
      await this.operators.touchSession(live.id, now);
    }
    return principalOf(live.operator, 'session', live.id, live.secondFactorAt);
  }
}

function principalOf(
  operator: { id: string; email: string; role: OperatorPrincipal['role'] },
  via: OperatorPrincipal['via'],
  credentialId: string,
  secondFactorAt: Date | null,
): OperatorPrincipal {
  return {
    kind: 'operator',
    operatorId: operator.id,
    email: operator.email,
    role: operator.role,
    via,
    credentialId,
    secondFactorAt,
  };
}
