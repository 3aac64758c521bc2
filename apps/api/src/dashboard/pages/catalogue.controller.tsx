import { Controller, Get, UseGuards } from '@nestjs/common';

import { EVENT_CATALOGUE } from '../../events/event-catalogue.js';
import { page } from '../../web/web-answer.js';
import { WebPages } from '../../web/web-pages.decorator.js';
import {
  Dashboard,
  type DashboardContext,
  DashboardRead,
  DashboardSessionGuard,
} from '../dashboard-session.guard.js';
import { CataloguePage } from '../views/catalogue.js';

@WebPages()
@UseGuards(DashboardSessionGuard)
@DashboardRead('CATALOGUE')
@Controller('dashboard/catalogue')
export class CatalogueController {
  @Get()
  show(@Dashboard() ctx: DashboardContext) {
    return page(<CataloguePage ctx={ctx} entries={EVENT_CATALOGUE} />);
  }
}
