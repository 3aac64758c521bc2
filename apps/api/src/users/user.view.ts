import type { User as UserRow } from '@svc/db';
import type { User } from '@svc/protocol';

/** The user record (docs/api-guide.md#users-events): the data of Users events. */
export function userRecord(user: UserRow): User {
  return {
    orgUserId: user.orgUserId,
    orgId: user.orgId,
    kyc: user.kyc,
    tnc: user.tnc,
    userStatus: user.userStatus,
    userType: user.userType,
  };
}

/** What the API answers about a user: the record, where KYC stands, and the timestamps. */
export function userView(user: UserRow) {
  return {
    ...userRecord(user),
    kycState: user.kycState,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}

export type UserView = ReturnType<typeof userView>;
