import { Controller, Get } from '@nestjs/common';

import { DashboardRead } from '../../auth/decorators.js';
import { EVENT_CATALOGUE } from '../../event-log/event-catalogue.js';
import { page } from '../../web/web-answer.js';
import { WebPages } from '../../web/web-pages.decorator.js';
import { Dashboard, type DashboardContext } from '../dashboard-context.js';
import { CataloguePage } from '../views/catalogue.js';

@WebPages()
@DashboardRead('CATALOGUE')
@Controller('dashboard/catalogue')
export class CatalogueController {
  @Get()
  show(@Dashboard() ctx: DashboardContext) {
    return page(<CataloguePage ctx={ctx} entries={EVENT_CATALOGUE} />);
  }
}
