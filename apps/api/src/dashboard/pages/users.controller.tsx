// Users and one user's KYC and positions, read through the api's own services with the session's
// organisation: another organisation's user is a 404, as on the api.
import { Controller, Get, Param, Query } from '@nestjs/common';

import { DashboardRead } from '../../auth/decorators.js';
import { KycService } from '../../kyc/kyc.service.js';
import { OrdersService } from '../../orders/orders.service.js';
import { UsersService } from '../../users/users.service.js';
import { page } from '../../web/web-answer.js';
import { WebPages } from '../../web/web-pages.decorator.js';
import { Dashboard, type DashboardContext } from '../dashboard-context.js';
import { DashboardUsersQuery } from '../dto/dashboard-users.query.js';
import { UserPage, UsersPage } from '../views/users.js';

@WebPages()
@DashboardRead('USERS')
@Controller('dashboard/users')
export class UsersPageController {
  constructor(
    private readonly users: UsersService,
    private readonly kyc: KycService,
    private readonly orders: OrdersService,
  ) {}

  @Get()
  async list(@Dashboard() ctx: DashboardContext, @Query() query: DashboardUsersQuery) {
    const { q, ...filters } = query;
    const found = await this.users.list(
      ctx.session.orgId,
      q ? { ...filters, orgUserIdPrefix: q } : filters,
      'newest-first',
    );
    return page(<UsersPage ctx={ctx} query={query} users={found.items} nextCursor={found.nextCursor} />);
  }

  @Get(':orgUserId')
  async show(@Dashboard() ctx: DashboardContext, @Param('orgUserId') orgUserId: string) {
    const orgId = ctx.session.orgId;
    const user = await this.users.get(orgId, orgUserId);
    const [kyc, history, positions] = await Promise.all([
      this.kyc.get(orgId, orgUserId),
      this.kyc.history(orgId, orgUserId),
      this.orders.positions(orgId, orgUserId),
    ]);
    return page(<UserPage ctx={ctx} user={user} kyc={kyc} history={history} positions={positions} />);
  }
}
