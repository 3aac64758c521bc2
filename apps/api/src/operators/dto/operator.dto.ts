import type { OperatorRole } from '@svc/db';
import { IsDefined } from 'class-validator';

import { IfPresent } from '../../common/validation.js';
import { OperatorEmail, OperatorName, Role } from './operator-fields.js';

/** Body of POST /api/v1/admin/operators. */
export class CreateOperatorDto {
  @IsDefined()
  @OperatorEmail()
  email!: string;

  @IsDefined()
  @OperatorName()
  name!: string;

  @IsDefined()
  @Role()
  role!: OperatorRole;
}

/** Body of PATCH /api/v1/admin/operators/{id}: the fields sent change. */
export class UpdateOperatorDto {
  @IfPresent()
  @OperatorName(false)
  name?: string;

  @IfPresent()
  @Role(false)
  role?: OperatorRole;
}
