// Routes that exist only in tests, added through AppDependencies.testModules: production has no route
// that throws on purpose.
import { Controller, Get, Module } from '@nestjs/common';

import { Public, RequireRole } from '../../src/auth/decorators.js';

/** What the unexpected error says: none of it may reach the caller. */
export const INTERNAL_DETAIL = 'relation "secret_table" does not exist at /srv/app/internal.ts:42';

@Controller('test')
class TestRoutesController {
  @Get('boom')
  @Public()
  boom(): never {
    throw new Error(INTERNAL_DETAIL);
  }

  @Get('admin')
  @RequireRole('SUPPORT')
  admin() {
    return { admin: true };
  }
}

@Module({ controllers: [TestRoutesController] })
export class TestRoutesModule {}
