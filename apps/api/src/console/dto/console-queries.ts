// The queries of the console's pages: the admin api's list queries, and `done`, which names the action
// whose success the page reports after a form (the post/redirect/get pattern).
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

import { PageQuery } from '../../common/pagination.js';

const DONE = () => Matches(/^[a-z-]{1,32}$/, { message: 'done must be a known action name' });

export class ConsolePageQuery extends PageQuery {
  @IsOptional()
  @IsString()
  @DONE()
  done?: string;
}

/** The organisations page: a search by id or part of the name. */
export class ConsoleOrgsQuery extends PageQuery {
  @IsOptional()
  @IsString()
  @MaxLength(200, { message: 'q must be at most 200 characters' })
  q?: string;
}

/** A page that reports a form's success only. */
export class ConsoleDoneQuery {
  @IsOptional()
  @IsString()
  @DONE()
  done?: string;
}

/** The webhook health page: every endpoint, or only those not HEALTHY. */
export class ConsoleWebhooksQuery extends PageQuery {
  @IsOptional()
  @IsIn(['all', 'unhealthy'], { message: 'show must be all or unhealthy' })
  show?: 'all' | 'unhealthy';
}
