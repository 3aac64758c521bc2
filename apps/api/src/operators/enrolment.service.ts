// Enrolment (docs/operators.md#enrolment): with the single-use setupToken their creation answered, the
// operator sets a password (argon2id) and receives a new TOTP secret (sealed at rest under the master key,
// like webhook secrets); the first code from their authenticator confirms it and spends the token.
import { Inject, Injectable } from '@nestjs/common';
import type { Operator } from '@svc/db';
import type { EntityManager } from 'typeorm';

import { AuditService } from '../audit/audit.service.js';
import { badRequest, notFound } from '../common/errors.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { decryptSecret, encryptSecret } from '../credentials/secrets.js';
import { checkTotp, hashPassword, newTotpSecret, sha256Hex, TOTP_CODE_RULE } from './operator-secrets.js';
import { operatorView, type OperatorView } from './operator.view.js';
import { OperatorsRepository } from './operators.repository.js';

export interface EnrolmentView {
  readonly email: string;
  /** Base32, for authenticator apps that take the key typed in. */
  readonly totpSecret: string;
  /** otpauth://totp/…, for a QR code. */
  readonly otpauthUri: string;
}

@Injectable()
export class EnrolmentService {
  constructor(
    private readonly repository: OperatorsRepository,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Sets the password and a new TOTP secret; again before confirming starts over with a new secret. */
  enrol(setupToken: string, password: string): Promise<EnrolmentView> {
    return this.repository.transaction(async (manager) => {
      const operator = await this.pending(manager, setupToken);
      const { secret, otpauthUri } = newTotpSecret(operator.email);
      operator.passwordHash = await hashPassword(password);
      operator.totpSecretCiphertext = encryptSecret(this.config.masterKey, secret);
      await this.repository.saveOperator(manager, operator);
      return { email: operator.email, totpSecret: secret, otpauthUri };
    });
  }

  /** The first code proves the authenticator holds the secret: the operator may sign in from now on. */
  confirm(setupToken: string, code: string): Promise<OperatorView> {
    return this.repository.transaction(async (manager) => {
      const operator = await this.pending(manager, setupToken);
      if (!operator.totpSecretCiphertext || !operator.passwordHash) {
        throw badRequest('setupToken: set a password first (POST /api/v1/admin/enrolment)');
      }
      const secret = decryptSecret(this.config.masterKey, operator.totpSecretCiphertext);
      const step = await checkTotp(secret, code, null);
      if (typeof step !== 'number') throw badRequest(`code is not the current one: ${TOTP_CODE_RULE}`);
      Object.assign(operator, {
        totpConfirmedAt: new Date(),
        totpLastStep: String(step),
        setupTokenHash: null,
        setupExpiresAt: null,
      } satisfies Partial<Operator>);
      const saved = await this.repository.saveOperator(manager, operator);
      await this.audit.record(manager, {
        actor: { operatorId: operator.id, label: operator.email },
        action: 'operator.enrol',
        orgId: null,
        details: { operatorId: operator.id, email: operator.email },
      });
      return operatorView(saved);
    });
  }

  /** The enabled operator whose unexpired setupToken this is, locked. */
  private async pending(manager: EntityManager, setupToken: string): Promise<Operator> {
    const operator = await this.repository.lockOperatorBySetupToken(manager, sha256Hex(setupToken));
    if (
      !operator ||
      operator.disabledAt ||
      !operator.setupExpiresAt ||
      operator.setupExpiresAt <= new Date()
    ) {
      throw notFound('setupToken is unknown, used or expired: ask an ADMIN to reset your enrolment');
    }
    return operator;
  }
}
