import { IsOptional, Matches } from 'class-validator';

import { ListEventsQuery } from '../../event-log/dto/list-events.query.js';
import { ORG_USER_ID, ORG_USER_ID_RULE } from '../../users/dto/create-user.dto.js';

/** The events page: the api's filters, and the user or the order the events concern. */
export class DashboardEventsQuery extends ListEventsQuery {
  @IsOptional()
  @Matches(ORG_USER_ID, { message: `orgUserId must be ${ORG_USER_ID_RULE}` })
  orgUserId?: string;

  @IsOptional()
  @Matches(/^[1-9][0-9]{0,18}$/, { message: 'orderId must be an order id, a whole number from 1' })
  orderId?: string;
}
