// Liveness and readiness for orchestrators (docs/decisions.md, "Requests: errors"), outside the api/v1
// prefix.
import { Controller, Get } from '@nestjs/common';

import { Public } from '../auth/decorators.js';
import { unavailable } from '../common/errors.js';
import { HealthRepository } from './health.repository.js';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/route.decorators.js';

@ApiTags('Operations')
@Controller()
@Public()
export class HealthController {
  constructor(private readonly database: HealthRepository) {}

  /** The process is up. */
  @ApiRoute({ summary: 'Liveness', description: 'The process is up.', data: 'Health' })
  @Get('healthz')
  health() {
    return { status: 'ok' };
  }

  /** The process can serve: PostgreSQL answers. */
  @ApiRoute({
    summary: 'Readiness',
    description: 'The process can serve: PostgreSQL answers (503 when it does not).',
    data: 'Ready',
  })
  @Get('readyz')
  async ready() {
    try {
      await this.database.ping();
    } catch {
      throw unavailable('the database cannot be reached');
    }
    return { status: 'ready' };
  }
}
