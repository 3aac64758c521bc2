import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, registerDecorator } from 'class-validator';

import { INSTANT_RULE, parseInstant } from '../../common/instant.js';

/** An instant as common/instant.ts reads it; the service checks it against now and the window. */
function Instant() {
  return (target: object, propertyName: string) => {
    registerDecorator({
      name: 'isInstant',
      target: target.constructor,
      propertyName,
      options: { message: `${propertyName} must be ${INSTANT_RULE}` },
      validator: { validate: (value: unknown) => parseInstant(value) !== undefined },
    });
  };
}

/** Body of POST /api/v1/webhooks/recover/ (docs/api-guide.md#recovering-failed-events). */
export class RecoverDto {
  @IsDefined()
  @Instant()
  @ApiProperty({
    type: 'string',
    format: 'date-time',
    description: `FAILED events created at or after this are redelivered: ${INSTANT_RULE}, not in the future and within the delivery window (the last 24 hours)`,
    example: '2030-01-31T22:00:00Z',
  })
  since!: string;
}
