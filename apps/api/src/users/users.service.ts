// Users of an organisation (docs/api-guide.md#users-events, docs/decisions.md, "Users: records and lists").
// Every change writes its Users event in the same transaction.
import { Injectable } from '@nestjs/common';
import { type User, transaction } from '@svc/db';
import { DataSource, type EntityManager } from 'typeorm';

import { conflict, notFound } from '../common/errors.js';
import { mapPage, type Page, type PageOrder } from '../common/pagination.js';
import { OutboxService } from '../outbox/outbox.service.js';
import type { CreateUserDto } from './dto/create-user.dto.js';
import type { UpdateUserDto } from './dto/update-user.dto.js';
import { userRecord, userView, type UserView } from './user.view.js';
import { type UserFilters, UsersRepository } from './users.repository.js';

const UNIQUE_VIOLATION = '23505';

@Injectable()
export class UsersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersRepository,
    private readonly events: OutboxService,
  ) {}

  async create(orgId: number, input: CreateUserDto): Promise<UserView> {
    try {
      return await transaction(this.dataSource, async (manager) =>
        userView((await this.insert(manager, orgId, input)).user),
      );
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
        throw conflict(`a user with orgUserId ${JSON.stringify(input.orgUserId)} already exists`);
      }
      throw error;
    }
  }

  /** Inserts the user and records its Users event in the caller's transaction; answers both. */
  async insert(
    manager: EntityManager,
    orgId: number,
    input: CreateUserDto,
  ): Promise<{ user: User; eventId: string }> {
    const user = await this.users.insert(manager, {
      orgId,
      orgUserId: input.orgUserId,
      kyc: input.kyc,
      tnc: input.tnc,
      userStatus: input.kyc ? 'ACTIVE' : 'PENDING',
      userType: 'CONSUMER',
      kycState: input.kyc ? 'KYC_COMPLETED' : 'NONE',
    });
    const eventId = await this.events.record(manager, { orgId, entity: 'Users', data: userRecord(user) });
    return { user, eventId };
  }

  async get(orgId: number, orgUserId: string): Promise<UserView> {
    return userView(await this.find(this.dataSource.manager, orgId, orgUserId));
  }

  async list(orgId: number, query: UserFilters, order?: PageOrder): Promise<Page<UserView>> {
    return mapPage(await this.users.list(orgId, query, order), userView);
  }

  async update(orgId: number, orgUserId: string, input: UpdateUserDto): Promise<UserView> {
    return transaction(this.dataSource, async (manager) => {
      const user = await this.find(manager, orgId, orgUserId, true);
      if (user.tnc === input.tnc) return userView(user);
      await this.users.update(manager, user, { tnc: input.tnc });
      await this.events.record(manager, { orgId, entity: 'Users', data: userRecord(user) });
      return userView(user);
    });
  }

  /** The organisation's user, or 404; `lock` holds it for the rest of the transaction. */
  async find(manager: EntityManager, orgId: number, orgUserId: string, lock = false): Promise<User> {
    const user = await this.users.find(manager, orgId, orgUserId, lock);
    if (!user) throw notFound(`no user with orgUserId ${JSON.stringify(orgUserId)}`);
    return user;
  }
}
