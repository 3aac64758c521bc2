import { IsIn, IsOptional } from 'class-validator';

import { PageQuery } from '../../common/pagination.js';

/**
 * An event's page: the page of its attempts, and `redelivered=1` after the Redeliver button or `retried=1`
 * after Retry now.
 */
export class DashboardEventQuery extends PageQuery {
  @IsOptional()
  @IsIn(['1'], { message: 'redelivered must be 1' })
  redelivered?: string;

  @IsOptional()
  @IsIn(['1'], { message: 'retried must be 1' })
  retried?: string;
}
