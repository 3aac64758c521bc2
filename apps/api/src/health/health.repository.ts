// Readiness's one query. Style: SQL (SELECT 1, no table).
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** The one query readiness needs: does PostgreSQL answer. */
@Injectable()
export class HealthRepository {
  constructor(private readonly dataSource: DataSource) {}

  async ping(): Promise<void> {
    await this.dataSource.query('SELECT 1');
  }
}
