// A console page that exists only in tests: one sensitive form (@RequireRole with stepUp), as the console's
// pages that issue credentials or change operators declare theirs, to test the step-up field end to end.
import { Controller, Get, Module, Post } from '@nestjs/common';

import { RequireRole } from '../../src/auth/decorators.js';
import { type ConsoleContext, OperatorConsole } from '../../src/operators/console-context.js';
import { ConsolePage } from '../../src/console/views/console-page.js';
import { StepUpField } from '../../src/console/views/step-up.js';
import { OperatorsModule } from '../../src/operators/operators.module.js';
import { PostForm } from '../../src/web/components/forms.js';
import { Notice } from '../../src/web/components/ui.js';
import { page } from '../../src/web/web-answer.js';
import { WebPages } from '../../src/web/web-pages.decorator.js';
import { WebModule } from '../../src/web/web.module.js';

/** How many times the sensitive action ran. */
export const sensitiveActions = { count: 0 };

@WebPages()
@Controller('console/test-step-up')
class StepUpPageController {
  @Get()
  @RequireRole('SUPPORT')
  show(@OperatorConsole() ctx: ConsoleContext) {
    return page(
      <ConsolePage ctx={ctx} title="Sensitive action" section="/console/">
        <PostForm action="/console/test-step-up" csrf={ctx.csrf} class="stacked">
          <StepUpField ctx={ctx} id="step-up-code" />
          <button type="submit">Do it</button>
        </PostForm>
      </ConsolePage>,
    );
  }

  @Post()
  @RequireRole('SUPPORT', { stepUp: true })
  act(@OperatorConsole() ctx: ConsoleContext) {
    sensitiveActions.count += 1;
    return page(
      <ConsolePage ctx={ctx} title="Sensitive action" section="/console/">
        <Notice kind="success">Done.</Notice>
      </ConsolePage>,
    );
  }
}

@Module({
  imports: [OperatorsModule, WebModule],
  controllers: [StepUpPageController],
})
export class ConsoleStepUpModule {}
