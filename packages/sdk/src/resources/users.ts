// The client's `users` group: create, read, update and list the organisation's users.
import { PageRequest } from '../pagination.js';
import type { RequestOptions } from '../transport.js';
import type {
  CreateUserParams,
  ListUsersParams,
  Page,
  PageParams,
  UpdateUserParams,
  UserView,
} from '../types.js';
import { path, pick, requireId, type Call } from './call.js';

export class UsersResource {
  constructor(private readonly call: Call) {}

  /** POST /api/v1/user/ (docs/api-guide.md#users-events). Not retried: a repeat after a lost answer would be a 409. */
  create(params: CreateUserParams, options?: RequestOptions): Promise<UserView> {
    const body = { orgUserId: params.orgUserId, kyc: params.kyc, tnc: params.tnc };
    return this.call(
      { method: 'POST', path: path('user'), body: { kind: 'json', value: body }, idempotent: false },
      options,
    );
  }

  get(orgUserId: string, options?: RequestOptions): Promise<UserView> {
    return this.call(
      { method: 'GET', path: path('user', requireId('orgUserId', orgUserId)), idempotent: true },
      options,
    );
  }

  /** Records the terms-and-conditions flag. */
  update(orgUserId: string, params: UpdateUserParams, options?: RequestOptions): Promise<UserView> {
    return this.call(
      {
        method: 'PATCH',
        path: path('user', requireId('orgUserId', orgUserId)),
        body: { kind: 'json', value: { tnc: params.tnc } },
        idempotent: false,
      },
      options,
    );
  }

  /** One page when awaited; every user when iterated with `for await`. Creation order. */
  list(params: ListUsersParams = {}, options?: RequestOptions): PageRequest<UserView> {
    return new PageRequest(
      (page: PageParams) =>
        this.call<Page<UserView>>(
          {
            method: 'GET',
            path: path('user'),
            query: {
              userStatus: params.userStatus,
              kyc: params.kyc,
              tnc: params.tnc,
              limit: page.limit,
              cursor: page.cursor,
            },
            idempotent: true,
          },
          options,
        ),
      { ...pick(params) },
    );
  }
}
