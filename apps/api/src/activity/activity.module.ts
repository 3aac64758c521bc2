import { Module } from '@nestjs/common';

import { ActivityRepository } from './activity.repository.js';
import { ActivityService } from './activity.service.js';

/** The figures behind the charts of the dashboard's overview and the console's home. */
@Module({
  providers: [ActivityRepository, ActivityService],
  exports: [ActivityService],
})
export class ActivityModule {}
