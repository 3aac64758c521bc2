// Liveness and readiness for orchestrators (DESIGN section 10).
import { Controller, Get } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { Public } from '../auth/decorators.js';
import { unavailable } from '../common/errors.js';

@Controller()
@Public()
export class HealthController {
  constructor(private readonly dataSource: DataSource) {}

  /** The process is up. */
  @Get('healthz')
  health() {
    return { status: 'ok' };
  }

  /** The process can serve: PostgreSQL answers. */
  @Get('readyz')
  async ready() {
    try {
      await this.dataSource.query('SELECT 1');
    } catch {
      throw unavailable('the database cannot be reached');
    }
    return { status: 'ready' };
  }
}
