// The data source and the queue, opened by the bootstrap and shared with every module, and the throttles'
// counters, which several features share, and their sweep.
import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { PgBoss } from 'pg-boss';
import { DataSource } from 'typeorm';

import { AttemptCountersRepository } from './attempt-counters.repository.js';
import { AttemptCountersSweeper } from './attempt-counters.sweeper.js';

export const BOSS = Symbol('BOSS');

@Global()
@Module({})
export class DatabaseModule {
  static forRoot(dataSource: DataSource, boss: PgBoss): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        { provide: DataSource, useValue: dataSource },
        { provide: BOSS, useValue: boss },
        AttemptCountersRepository,
        AttemptCountersSweeper,
      ],
      exports: [DataSource, BOSS, AttemptCountersRepository],
    };
  }
}
