// Console sign-in (docs/operators.md#sign-in): e-mail, password and a TOTP code in one request, throttled
// (sign-in-throttle.ts); a session with idle and absolute expiry whose cookie holds a 256-bit value (stored
// as its SHA-256). The TOTP code of a sign-in counts as the step-up for the next minutes; later,
// POST /session/step-up takes a fresh code for the session or the personal token in use.
import { Inject, Injectable } from '@nestjs/common';
import type { Operator, SessionMethod } from '@svc/db';

import { AuditService } from '../audit/audit.service.js';
import type { OperatorPrincipal } from '../auth/principal.js';
import { badRequest, unauthenticated } from '../common/errors.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { decryptSecret } from '../credentials/secrets.js';
import type { SignInDto } from './dto/sign-in.dto.js';
import {
  checkTotp,
  decoyPasswordHash,
  newSessionToken,
  sha256Hex,
  verifyPassword,
} from './operator-secrets.js';
import { operatorView, type OperatorView } from './operator.view.js';
import { OperatorsRepository } from './operators.repository.js';
import { CsrfTokens } from '../common/csrf-tokens.js';
import { SignInThrottle } from './sign-in-throttle.js';

const REFUSED = 'the e-mail, password or code is wrong';

type CodeCheck = 'accepted' | 'replayed' | 'wrong';

export interface NewSession {
  /** The cookie's value: never in the answer's body. */
  readonly token: string;
  readonly maxAgeSeconds: number;
  readonly view: SessionView;
}

export interface SessionView {
  readonly operator: OperatorView;
  readonly via: 'session' | 'token';
  /** The session's absolute end (null for a personal token). */
  readonly expiresAt: string | null;
  readonly idleMinutes: number | null;
  /** Until when sensitive actions need no new code; null when they need one now. */
  readonly stepUpUntil: string | null;
  /** Send it as X-CSRF-Token with every request but GET (null for a personal token). */
  readonly csrfToken: string | null;
}

@Injectable()
export class SignInService {
  constructor(
    private readonly repository: OperatorsRepository,
    private readonly throttle: SignInThrottle,
    private readonly audit: AuditService,
    private readonly csrf: CsrfTokens,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async signIn(input: SignInDto, address: string): Promise<NewSession> {
    await this.throttle.attempt(input.email, address);
    const operator = await this.repository.findOperatorByEmail(this.repository.manager, input.email);
    const hash = operator && !operator.disabledAt && operator.totpConfirmedAt ? operator.passwordHash : null;
    // Unknown or not enrolled: the same work and the same answer as a wrong password.
    const passwordOk = await verifyPassword(hash ?? (await decoyPasswordHash()), input.password);
    if (!operator || hash === null || !passwordOk) throw unauthenticated(REFUSED);
    const session = await this.repository.transaction(async (manager) => {
      const locked = await this.repository.findOperator(manager, operator.id, true);
      if (!locked) return 'wrong';
      const code = await this.acceptCode(locked, input.code);
      if (code !== 'accepted') return code;
      await this.repository.saveOperator(manager, locked);
      const token = newSessionToken();
      const now = new Date();
      const row = await this.repository.insertSession(manager, {
        operatorId: locked.id,
        tokenHash: sha256Hex(token),
        method: 'password' satisfies SessionMethod,
        expiresAt: new Date(now.getTime() + this.config.operators.sessionMaxHours * 3_600_000),
        secondFactorAt: now,
      });
      await this.audit.record(manager, {
        actor: { operatorId: locked.id, label: locked.email },
        action: 'operator.sign-in',
        orgId: null,
        details: { sessionId: row.id, method: row.method, address },
      });
      return { token, row, operator: locked };
    });
    if (session === 'replayed') await this.throttle.replayed(input.email, address);
    if (session === 'wrong' || session === 'replayed') throw unauthenticated(REFUSED);
    await this.throttle.succeeded(input.email, address);
    return this.started(session.token, session.row, session.operator);
  }

  /** A session for an operator single sign-on vouched for (oidc.service.ts), not stepped up. */
  async startSession(operator: Operator, method: SessionMethod, details: object): Promise<NewSession> {
    const token = newSessionToken();
    const row = await this.repository.transaction(async (manager) => {
      const inserted = await this.repository.insertSession(manager, {
        operatorId: operator.id,
        tokenHash: sha256Hex(token),
        method,
        expiresAt: new Date(Date.now() + this.config.operators.sessionMaxHours * 3_600_000),
        secondFactorAt: null,
      });
      await this.audit.record(manager, {
        actor: { operatorId: operator.id, label: operator.email },
        action: 'operator.sign-in',
        orgId: null,
        details: { sessionId: inserted.id, method, ...details },
      });
      return inserted;
    });
    return this.started(token, row, operator);
  }

  /** Ends the caller's console session (a personal token is revoked instead). */
  async signOut(caller: OperatorPrincipal): Promise<void> {
    if (caller.via !== 'session') {
      throw badRequest(
        'sign-out ends a console session; revoke a personal token with POST /api/v1/admin/tokens/{id}/revoke',
      );
    }
    await this.repository.revokeSession(caller.credentialId, new Date());
  }

  /** A fresh TOTP code: sensitive actions need none for the step-up window. Throttled like a sign-in. */
  async stepUp(caller: OperatorPrincipal, code: string, address: string): Promise<{ stepUpUntil: string }> {
    await this.throttle.attempt(caller.email, address);
    const accepted = await this.repository.transaction(async (manager) => {
      const operator = await this.repository.findOperator(manager, caller.operatorId, true);
      if (!operator?.totpConfirmedAt) {
        throw badRequest('you have no TOTP enrolled: ask an ADMIN to reset your enrolment, then enrol');
      }
      const check = await this.acceptCode(operator, code);
      if (check === 'accepted') await this.repository.saveOperator(manager, operator);
      return check;
    });
    if (accepted === 'replayed') await this.throttle.replayed(caller.email, address);
    if (accepted !== 'accepted') throw unauthenticated('the code is wrong or was already used');
    await this.throttle.succeeded(caller.email, address);
    const now = new Date();
    if (caller.via === 'session') await this.repository.setSessionSecondFactor(caller.credentialId, now);
    else await this.repository.setTokenSecondFactor(caller.credentialId, now);
    return {
      stepUpUntil: new Date(now.getTime() + this.config.operators.stepUpMinutes * 60_000).toISOString(),
    };
  }

  /** Who is calling, with their session or token's state. */
  async describe(caller: OperatorPrincipal, sessionToken: string | undefined): Promise<SessionView> {
    const operator = await this.repository.findOperator(this.repository.manager, caller.operatorId);
    if (!operator) throw unauthenticated('your operator account is gone');
    const session =
      caller.via === 'session' && sessionToken !== undefined
        ? await this.repository.findSession(caller.credentialId)
        : null;
    return {
      operator: operatorView(operator),
      via: caller.via,
      expiresAt: session?.expiresAt.toISOString() ?? null,
      idleMinutes: session ? this.config.operators.sessionIdleMinutes : null,
      stepUpUntil: this.stepUpUntil(caller.secondFactorAt),
      csrfToken: session && sessionToken !== undefined ? this.csrf.create(session.id) : null,
    };
  }

  /**
   * Whether `code` is good for the operator now and newer than the last one used (then its step is
   * recorded), a good code already used, or wrong.
   */
  private async acceptCode(operator: Operator, code: string): Promise<CodeCheck> {
    if (!operator.totpSecretCiphertext) return 'wrong';
    const secret = decryptSecret(this.config.masterKey, operator.totpSecretCiphertext);
    const last = operator.totpLastStep === null ? null : Number(operator.totpLastStep);
    const step = await checkTotp(secret, code, last);
    if (step === 'replayed') return 'replayed';
    if (step === null) return 'wrong';
    operator.totpLastStep = String(step);
    return 'accepted';
  }

  private started(
    token: string,
    { id, expiresAt, secondFactorAt }: { id: string; expiresAt: Date; secondFactorAt: Date | null },
    operator: Operator,
  ): NewSession {
    return {
      token,
      maxAgeSeconds: Math.floor((expiresAt.getTime() - Date.now()) / 1000),
      view: {
        operator: operatorView(operator),
        via: 'session',
        expiresAt: expiresAt.toISOString(),
        idleMinutes: this.config.operators.sessionIdleMinutes,
        stepUpUntil: this.stepUpUntil(secondFactorAt),
        csrfToken: this.csrf.create(id),
      },
    };
  }

  private stepUpUntil(secondFactorAt: Date | null): string | null {
    if (!secondFactorAt) return null;
    const until = secondFactorAt.getTime() + this.config.operators.stepUpMinutes * 60_000;
    return until > Date.now() ? new Date(until).toISOString() : null;
  }
}
