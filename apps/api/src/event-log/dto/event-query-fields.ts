// Query fields the event log and the event stream share: a time, checked strictly (see INSTANT_RULE).
import { ApiPropertyOptional } from '@nestjs/swagger';
import { applyDecorators } from '@nestjs/common';
import { IsOptional, registerDecorator } from 'class-validator';

import { INSTANT_RULE, parseInstant } from '../../common/instant.js';

/** An optional instant in the query, e.g. `since`; the message names the field and the rule. */
export function InstantQuery(description: string) {
  return applyDecorators(
    IsOptional(),
    (target: object, propertyName: string | symbol) =>
      registerDecorator({
        name: 'isInstant',
        target: target.constructor,
        propertyName: String(propertyName),
        validator: {
          validate: (value: unknown) => parseInstant(value) !== undefined,
          defaultMessage: () => `${String(propertyName)} must be ${INSTANT_RULE}`,
        },
      }),
    ApiPropertyOptional({
      type: 'string',
      format: 'date-time',
      description: `${description} (${INSTANT_RULE})`,
    }),
  );
}
