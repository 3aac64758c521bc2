// Operator accounts (docs/operators.md#accounts): an ADMIN creates them (the first one with ADMIN_TOKEN),
// changes their name or role, disables them or resets their enrolment. Each is audited in its transaction.
// Creating or resetting answers a single-use enrolment token, shown once, with which the person sets their
// password and TOTP (enrolment.service.ts). There is always at least one enabled ADMIN.
import { Inject, Injectable } from '@nestjs/common';
import type { Operator } from '@svc/db';
import type { EntityManager } from 'typeorm';

import { type AuditActor, auditActor } from '../audit/admin-actor.decorator.js';
import { AuditService } from '../audit/audit.service.js';
import type { OperatorCaller } from '../auth/principal.js';
import { badRequest, conflict, notFound, unauthenticated } from '../common/errors.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import type { CreateOperatorDto, UpdateOperatorDto } from './dto/operator.dto.js';
import { newSetupToken, sha256Hex } from './operator-secrets.js';
import { operatorView, type OperatorView } from './operator.view.js';
import { OperatorsRepository } from './operators.repository.js';

export type CreatedOperatorView = OperatorView & {
  readonly setupToken: string;
  readonly setupExpiresAt: string;
};

@Injectable()
export class OperatorsService {
  constructor(
    private readonly repository: OperatorsRepository,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Creates an operator, pending until they enrol with the answer's setupToken. With ADMIN_TOKEN (bootstrap)
   * only an ADMIN, and only while none exists: checked again here, under a lock, against a concurrent one.
   */
  create(caller: OperatorCaller, input: CreateOperatorDto): Promise<CreatedOperatorView> {
    return this.createAs(auditActor(caller), input, caller.kind === 'bootstrap');
  }

  /** `create` for the service itself (the demo, the test fixture), audited as `actor`. */
  createAs(actor: AuditActor, input: CreateOperatorDto, bootstrap = false): Promise<CreatedOperatorView> {
    return this.repository.transaction(async (manager) => {
      if (bootstrap) {
        if (input.role !== 'ADMIN')
          throw badRequest('role must be ADMIN: ADMIN_TOKEN only creates the first ADMIN');
        await this.repository.lockAdmins(manager);
        if (await this.repository.adminExists(manager)) {
          throw unauthenticated('ADMIN_TOKEN is refused: an ADMIN exists; sign in, or use a personal token');
        }
      }
      if (await this.repository.findOperatorByEmail(manager, input.email)) {
        throw conflict(`an operator with the e-mail ${input.email} exists`);
      }
      const { token, hash, expiresAt } = this.newSetup();
      const operator = await this.repository.insertOperator(manager, {
        email: input.email,
        name: input.name,
        role: input.role,
        setupTokenHash: hash,
        setupExpiresAt: expiresAt,
      });
      await this.audit.record(manager, {
        actor,
        action: 'operator.create',
        orgId: null,
        details: { operatorId: operator.id, email: operator.email, role: operator.role, bootstrap },
      });
      return { ...operatorView(operator), setupToken: token, setupExpiresAt: expiresAt.toISOString() };
    });
  }

  async list(): Promise<{ items: OperatorView[] }> {
    return { items: (await this.repository.listOperators()).map(operatorView) };
  }

  async get(id: string): Promise<OperatorView> {
    return operatorView(await this.find(this.repository.manager, id));
  }

  /** Changes the fields sent. Demoting the last enabled ADMIN is refused. */
  update(actor: AuditActor, id: string, input: UpdateOperatorDto): Promise<OperatorView> {
    return this.repository.transaction(async (manager) => {
      if (input.role !== undefined) await this.repository.lockAdmins(manager);
      const operator = await this.find(manager, id, true);
      const changes: Record<string, { from: string; to: string }> = {};
      if (input.name !== undefined && input.name !== operator.name) {
        changes.name = { from: operator.name, to: input.name };
        operator.name = input.name;
      }
      if (input.role !== undefined && input.role !== operator.role) {
        if (operator.role === 'ADMIN') await this.keepAnAdmin(manager, operator);
        changes.role = { from: operator.role, to: input.role };
        operator.role = input.role;
      }
      const saved = await this.repository.saveOperator(manager, operator);
      await this.audit.record(manager, {
        actor,
        action: 'operator.update',
        orgId: null,
        details: { operatorId: id, email: operator.email, changes },
      });
      return operatorView(saved);
    });
  }

  /** The operator can no longer sign in; their sessions and tokens end at once. Idempotent. */
  disable(actor: AuditActor, id: string): Promise<OperatorView> {
    return this.repository.transaction(async (manager) => {
      await this.repository.lockAdmins(manager);
      const operator = await this.find(manager, id, true);
      const alreadyDisabled = operator.disabledAt !== null;
      let revoked = 0;
      if (!alreadyDisabled) {
        if (operator.role === 'ADMIN') await this.keepAnAdmin(manager, operator);
        operator.disabledAt = new Date();
        await this.repository.saveOperator(manager, operator);
        revoked = await this.repository.revokeCredentials(manager, id, operator.disabledAt);
      }
      await this.audit.record(manager, {
        actor,
        action: 'operator.disable',
        orgId: null,
        details: { operatorId: id, email: operator.email, alreadyDisabled, credentialsRevoked: revoked },
      });
      return operatorView(operator);
    });
  }

  /**
   * A lost authenticator or password: the operator's password and TOTP are cleared, their sessions and
   * tokens end, and a new enrolment token is answered (their single sign-on link stays).
   */
  resetEnrolment(actor: AuditActor, id: string): Promise<CreatedOperatorView> {
    return this.repository.transaction(async (manager) => {
      const operator = await this.find(manager, id, true);
      if (operator.disabledAt) throw conflict(`operator ${id} is disabled`);
      const { token, hash, expiresAt } = this.newSetup();
      Object.assign(operator, {
        passwordHash: null,
        totpSecretCiphertext: null,
        totpConfirmedAt: null,
        totpLastStep: null,
        setupTokenHash: hash,
        setupExpiresAt: expiresAt,
      } satisfies Partial<Operator>);
      const saved = await this.repository.saveOperator(manager, operator);
      const revoked = await this.repository.revokeCredentials(manager, id, new Date());
      await this.audit.record(manager, {
        actor,
        action: 'operator.reset',
        orgId: null,
        details: { operatorId: id, email: operator.email, credentialsRevoked: revoked },
      });
      return { ...operatorView(saved), setupToken: token, setupExpiresAt: expiresAt.toISOString() };
    });
  }

  private async find(manager: EntityManager, id: string, lock = false): Promise<Operator> {
    const operator = await this.repository.findOperator(manager, id, lock);
    if (!operator) throw notFound(`no operator ${id}`);
    return operator;
  }

  /** Refuses to demote or disable `operator` when they are the last enabled ADMIN. */
  private async keepAnAdmin(manager: EntityManager, operator: Operator): Promise<void> {
    if (operator.disabledAt) return;
    if (!(await this.repository.adminExists(manager, operator.id))) {
      throw conflict(`${operator.email} is the last ADMIN: make another operator ADMIN first`);
    }
  }

  private newSetup(): { token: string; hash: string; expiresAt: Date } {
    const token = newSetupToken();
    return {
      token,
      hash: sha256Hex(token),
      expiresAt: new Date(Date.now() + this.config.operators.setupHours * 3_600_000),
    };
  }
}
