// The console's home page (/console/): every operator may open it.
import { Controller, Get } from '@nestjs/common';

import { RequireRole } from '../../auth/decorators.js';
import { page } from '../../web/web-answer.js';
import { WebPages } from '../../web/web-pages.decorator.js';
import { type ConsoleContext, OperatorConsole } from '../../operators/console-context.js';
import { HomePage } from '../views/home.js';

@WebPages()
@Controller('console')
export class ConsoleHomeController {
  @Get()
  @RequireRole('SUPPORT')
  show(@OperatorConsole() ctx: ConsoleContext) {
    return page(<HomePage ctx={ctx} />);
  }
}
