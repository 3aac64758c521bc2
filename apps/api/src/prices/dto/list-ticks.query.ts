import { PageQuery } from '../../common/pagination.js';
import { InstantQuery } from '../../event-log/dto/event-query-fields.js';

/** GET /api/v1/admin/prices/{symbol}/ticks: a pair's price history, oldest first. */
export class ListTicksQuery extends PageQuery {
  @InstantQuery('Only ticks quoted at or after this time; default a day before `to`')
  from?: string;

  @InstantQuery('Only ticks quoted before this time; default now')
  to?: string;
}
