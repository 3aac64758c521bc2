// Operators' personal API tokens (docs/operators.md#personal-tokens), for the CLI and automation: issued to
// the caller only (a credential: step-up first), shown once and stored as their SHA-256, expiring, revocable
// by their operator or an ADMIN, with when they were last used. Each issue and revocation is audited.
import { Inject, Injectable } from '@nestjs/common';

import { type AuditActor, auditActor } from '../audit/admin-actor.decorator.js';
import { AuditService } from '../audit/audit.service.js';
import type { OperatorPrincipal } from '../auth/principal.js';
import { badRequest, notFound } from '../common/errors.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { DEFAULT_TOKEN_DAYS, type IssuePersonalTokenDto } from './dto/personal-token.dto.js';
import { newOperatorToken, sha256Hex } from './operator-secrets.js';
import { operatorTokenView, type OperatorTokenView } from './operator.view.js';
import { OperatorsRepository } from './operators.repository.js';

export type IssuedOperatorTokenView = OperatorTokenView & { readonly token: string };

@Injectable()
export class PersonalTokensService {
  constructor(
    private readonly repository: OperatorsRepository,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** A new token for `caller`; the answer holds it, the only time it is shown. */
  issue(caller: OperatorPrincipal, input: IssuePersonalTokenDto): Promise<IssuedOperatorTokenView> {
    return this.issueFor(auditActor(caller), caller.operatorId, input);
  }

  /** `issue` for the service itself (the demo, the test fixture), audited as `actor`. */
  issueFor(
    actor: AuditActor,
    operatorId: string,
    input: IssuePersonalTokenDto,
  ): Promise<IssuedOperatorTokenView> {
    const maxDays = this.config.operators.tokenMaxDays;
    const days = input.expiresInDays ?? Math.min(DEFAULT_TOKEN_DAYS, maxDays);
    if (days > maxDays)
      throw badRequest(`expiresInDays must be at most ${maxDays} (OPERATOR_TOKEN_MAX_DAYS)`);
    return this.repository.transaction(async (manager) => {
      const token = newOperatorToken();
      const row = await this.repository.insertToken(manager, {
        operatorId,
        tokenHash: sha256Hex(token),
        label: input.label ?? '',
        expiresAt: new Date(Date.now() + days * 86_400_000),
      });
      await this.audit.record(manager, {
        actor,
        action: 'operator-token.issue',
        orgId: null,
        details: { tokenId: row.id, operatorId, label: row.label, expiresAt: row.expiresAt.toISOString() },
      });
      return { ...operatorTokenView(row), token };
    });
  }

  /** The caller's own tokens, newest first, never their values. */
  async list(caller: OperatorPrincipal): Promise<{ items: OperatorTokenView[] }> {
    return { items: (await this.repository.listTokens(caller.operatorId)).map(operatorTokenView) };
  }

  /** Revokes one of the caller's tokens, or anyone's for an ADMIN; idempotent. */
  revoke(caller: OperatorPrincipal, id: string): Promise<OperatorTokenView> {
    return this.repository.transaction(async (manager) => {
      const token = await this.repository.lockToken(manager, id);
      // Another operator's token is as unknown as a missing one, unless the caller is an ADMIN.
      if (!token || (token.operatorId !== caller.operatorId && caller.role !== 'ADMIN')) {
        throw notFound(`you have no personal token ${id}`);
      }
      const alreadyRevoked = token.revokedAt !== null;
      if (!alreadyRevoked) {
        token.revokedAt = new Date();
        await this.repository.revokeToken(manager, id, token.revokedAt);
      }
      await this.audit.record(manager, {
        actor: auditActor(caller),
        action: 'operator-token.revoke',
        orgId: null,
        details: { tokenId: id, operatorId: token.operatorId, alreadyRevoked },
      });
      return operatorTokenView(token);
    });
  }
}
