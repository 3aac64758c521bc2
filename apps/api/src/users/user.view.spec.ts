// The user record as Users and KYC events send it: the fields of USER_SCHEMA (@svc/protocol), in its order.
import type { User as UserRow } from '@svc/db';
import { parseUser, USER_SCHEMA } from '@svc/protocol';

import { userRecord, userView } from './user.view.js';

const row = {
  id: '7',
  orgId: 42,
  orgUserId: 'user-42',
  kyc: false,
  tnc: true,
  userStatus: 'PENDING',
  userType: 'CONSUMER',
  kycState: 'NONE',
  kycForm: null,
  kycExpiresAt: null,
  createdAt: new Date('2026-01-15T10:30:00.000Z'),
  updatedAt: new Date('2026-01-15T10:30:00.000Z'),
} as UserRow;

describe('userRecord', () => {
  it("has the schema's fields in the schema's order, and passes the protocol's parser", () => {
    const record = userRecord(row);
    expect(Object.keys(record)).toEqual(Object.keys(USER_SCHEMA.properties));
    expect(parseUser(JSON.parse(JSON.stringify(record)))).toEqual(record);
  });

  it('is the start of the user view', () => {
    expect(Object.keys(userView(row))).toEqual([
      ...Object.keys(USER_SCHEMA.properties),
      'kycState',
      'createdAt',
      'updatedAt',
    ]);
  });
});
