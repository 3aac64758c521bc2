// An organisation's policy on the operator surface (docs/decisions.md, "Organisations: the policy"): enabled
// assets, the four limits and the fees. Each changed limit, and a changed set of enabled assets, emits one
// Actions event (docs/api-guide.md#events) with the complete new map, in the transaction that saves the
// policy and writes its audit entry.
import { Injectable } from '@nestjs/common';
import { type OrgPolicy, transaction } from '@svc/db';
import type { ActionName, ActionsData } from '@svc/protocol';
import { DataSource } from 'typeorm';

import { AuditService } from '../audit/audit.service.js';
import type { AuditActor } from '../audit/admin-actor.decorator.js';
import { badRequest } from '../common/errors.js';
import { Dec, exactNumber } from '../common/decimal.js';
import { OutboxService } from '../outbox/outbox.service.js';
import { adminOrgView, type AdminOrgView } from '../orgs/org.view.js';
import { OrgsService } from '../orgs/orgs.service.js';
import type { UpdatePolicyDto } from './dto/update-policy.dto.js';

/** The limit fields and the Actions event each one's change emits, in the order docs/api-guide.md#actions-events lists the names. */
const LIMITS = [
  ['quoteLimit', 'QUOTE_LIMIT'],
  ['totalLimit', 'TOTAL_LIMIT'],
  ['totalExposure', 'TOTAL_EXPOSURE'],
  ['assetExposure', 'ASSET_EXPOSURE'],
] as const satisfies readonly (readonly [keyof OrgPolicy, ActionName])[];

const RATES = ['commissionRate', 'vatRate'] as const;

export const POLICY_FIELDS = ['enabledAssets', ...LIMITS.map(([field]) => field), ...RATES] as const;

/** Decimal text in its shortest form ("1000", "0.0015"), the form policies are stored in. */
const canonical = (text: string): string => new Dec(text).toFixed();

/** A limit map with canonical amounts, codes in alphabetical order. */
function canonicalMap(map: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(map)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([code, amount]) => [code, canonical(amount)]),
  );
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** What a policy update changes: the new policy, each changed field's old and new value, and the Actions events it emits. */
export interface PolicyChange {
  readonly next: OrgPolicy;
  readonly changes: Record<string, { from: unknown; to: unknown }>;
  readonly actions: ActionsData[];
}

/**
 * The change `input` makes to the policy `old`, written nowhere: the update applies it, and the console
 * shows it as a preview (which Actions events the change will emit) before the operator confirms.
 */
export function planPolicyChange(old: OrgPolicy, input: UpdatePolicyDto): PolicyChange {
  const next: OrgPolicy = { ...old };
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  const actions: ActionsData[] = [];

  for (const [field, name] of LIMITS) {
    const sent = input[field];
    if (sent === undefined) continue;
    const from = canonicalMap(old[field]);
    const to = canonicalMap(
      Object.fromEntries(Object.entries(sent).map(([code, amount]) => [code, amount.toFixed()])),
    );
    if (sameJson(from, to)) continue;
    changes[field] = { from: old[field], to };
    next[field] = to;
    actions.push({
      name,
      newValues: Object.fromEntries(Object.entries(to).map(([code, text]) => [code, exactNumber(text)])),
    });
  }

  if (input.enabledAssets !== undefined) {
    const from = [...old.enabledAssets].sort();
    const to = [...input.enabledAssets].sort();
    if (!sameJson(from, to)) {
      changes.enabledAssets = { from: old.enabledAssets, to };
      next.enabledAssets = to;
      const removed = from.filter((code) => !to.includes(code));
      const newValues: Record<string, number> = {};
      for (const code of [...to, ...removed].sort()) newValues[code] = to.includes(code) ? 1 : 0;
      actions.push({ name: 'ASSET_ENABLE', newValues });
    }
  }

  for (const field of RATES) {
    const sent = input[field];
    if (sent === undefined) continue;
    const to = sent.toFixed();
    if (canonical(old[field]) === to) continue;
    changes[field] = { from: old[field], to };
    next[field] = to;
  }
  return { next, changes, actions };
}

@Injectable()
export class PolicyService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly orgs: OrgsService,
    private readonly audit: AuditService,
    private readonly events: OutboxService,
  ) {}

  update(actor: AuditActor, orgId: number, input: UpdatePolicyDto): Promise<AdminOrgView> {
    if (POLICY_FIELDS.every((field) => input[field] === undefined)) {
      throw badRequest(`send at least one of ${POLICY_FIELDS.join(', ')}`);
    }
    return transaction(this.dataSource, async (manager) => {
      const org = await this.orgs.find(manager, orgId, true);
      const { next, changes, actions } = planPolicyChange(org.policy, input);

      const saved = Object.keys(changes).length > 0 ? await this.orgs.savePolicy(manager, org, next) : org;
      const eventIds: string[] = [];
      for (const data of actions) {
        eventIds.push(await this.events.record(manager, { orgId, entity: 'Actions', data }));
      }
      await this.audit.record(manager, {
        actor,
        action: 'org.policy',
        orgId,
        details: { changes, eventIds },
      });
      return adminOrgView(saved);
    });
  }
}
