// The data of a triggered event (docs/testing.md#svc-trigger-and-triggered-events): a record of the kind
// the event carries, from the examples of its JSON Schema in @svc/protocol, made the organisation's and the
// user's. Pure.
import { randomUUID } from 'node:crypto';

import {
  ACTIONS_DATA_SCHEMA,
  type ActionsData,
  type EntityName,
  type KycDocumentUser,
  type KycEventType,
  ORDER_SCHEMA,
  type Order,
  SYSTEM_INFORMATION_DATA_SCHEMA,
  type SystemInformationData,
  type User,
} from '@svc/protocol';

import { userChangesAfter } from '../kyc/kyc-state-machine.js';

/** Each property's first example (else its first allowed value, else null), in the schema's order. */
export function exampleOf(schema: { readonly properties: object }): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(schema.properties).map(([name, property]) => {
      const { examples, enum: allowed } = property as { examples?: unknown[]; enum?: unknown[] };
      return [name, examples?.[0] ?? allowed?.[0] ?? null];
    }),
  );
}

/** What the user record of a KYC event says: the kyc flag and status the event implies (KYC: the states). */
export function kycRecord(user: User, eventType: KycEventType): User | KycDocumentUser {
  const changes = userChangesAfter(eventType);
  const record: User = { ...user, kyc: changes.kyc, userStatus: changes.userStatus ?? user.userStatus };
  return eventType === 'KYC_DOC_UPLOADED'
    ? { ...record, docCategory: 'IDENTITY', docSubCategory: 'PASSPORT' }
    : record;
}

/** A COMPLETED market order of `orgUserId`, as the schema's example has it, stamped `now`. */
export function orderRecord(orgId: number, orgUserId: string, now: Date): Order {
  const example = exampleOf(ORDER_SCHEMA) as unknown as Order;
  const at = now.toISOString();
  return {
    ...example,
    orgId,
    clientOrderId: randomUUID(),
    orgUserId,
    rejectionReason: null,
    createdAt: at,
    updatedAt: at,
  };
}

/** The data of an event without a user: Actions (a policy change) or SystemInformation (a notice). */
export function orgRecord(
  entity: Exclude<EntityName, 'Users' | 'Orders'>,
): ActionsData | SystemInformationData {
  if (entity === 'Actions') return exampleOf(ACTIONS_DATA_SCHEMA) as unknown as ActionsData;
  return {
    ...(exampleOf(SYSTEM_INFORMATION_DATA_SCHEMA) as unknown as SystemInformationData),
    endTime: null,
  };
}
