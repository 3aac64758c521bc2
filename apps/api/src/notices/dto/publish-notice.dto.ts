import { SYSTEM_NOTICES, type SystemNotice } from '@svc/protocol';
import { IsIn, IsString, Matches, registerDecorator, ValidateIf } from 'class-validator';

import { SYMBOL, SYMBOL_RULE } from '../../common/assets.js';
import { INSTANT_RULE, parseInstant } from '../../common/instant.js';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Notices about a trading pair: their entity is its symbol. */
export const PAIR_NOTICES: readonly SystemNotice[] = ['ASSET_ENABLE', 'ASSET_DISABLE'];

const ENTITY = /^(?=.*\S)[^\p{Cc}]{1,128}$/u;
const MESSAGE = /^(?=[^]*\S)[^\p{Cc}]{1,2000}$/u;

/** entity is a symbol when the notice is about a pair. */
function PairEntity() {
  return (target: object, propertyName: string) => {
    registerDecorator({
      name: 'isPairEntity',
      target: target.constructor,
      propertyName,
      options: { message: `entity must be a trading pair for ${PAIR_NOTICES.join(' and ')}: ${SYMBOL_RULE}` },
      validator: {
        validate: (value: unknown, args) =>
          !PAIR_NOTICES.includes((args?.object as PublishNoticeDto).event) ||
          (typeof value === 'string' && SYMBOL.test(value)),
      },
    });
  };
}

/** An instant (see instant.ts); for endTime also after startTime when both are given. */
function Instant() {
  return (target: object, propertyName: string) => {
    registerDecorator({
      name: 'isInstant',
      target: target.constructor,
      propertyName,
      validator: {
        validate: (value: unknown, args) => {
          const at = parseInstant(value);
          if (!at) return false;
          if (propertyName !== 'endTime') return true;
          const start = parseInstant((args?.object as PublishNoticeDto).startTime);
          return !start || at > start;
        },
        defaultMessage: (args) =>
          parseInstant(args?.value)
            ? 'endTime must be after startTime'
            : `${propertyName} must be null or ${INSTANT_RULE}`,
      },
    });
  };
}

/** Body of POST /api/v1/admin/notices/ (docs/api-guide.md#events, SystemInformation). */
export class PublishNoticeDto {
  @IsIn(SYSTEM_NOTICES, { message: `event must be one of ${SYSTEM_NOTICES.join(', ')}` })
  @ApiProperty({ enum: SYSTEM_NOTICES })
  event!: SystemNotice;

  @IsString({ message: 'entity must be a string' })
  @Matches(ENTITY, { message: 'entity must be 1 to 128 characters, not blank, without control characters' })
  @PairEntity()
  @ApiProperty({
    pattern: ENTITY.source,
    description: `What the notice is about; for ${PAIR_NOTICES.join(' and ')} a trading pair (${SYMBOL_RULE})`,
  })
  entity!: string;

  @IsString({ message: 'message must be a string' })
  @Matches(MESSAGE, {
    message: 'message must be 1 to 2000 characters, not blank, without control characters',
  })
  @ApiProperty({
    pattern: MESSAGE.source,
    description: '1 to 2000 characters, not blank, without control characters',
  })
  message!: string;

  @ValidateIf((_object: object, value: unknown) => value !== undefined && value !== null)
  @Instant()
  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: `Null or ${INSTANT_RULE}`,
  })
  startTime?: string | null;

  @ValidateIf((_object: object, value: unknown) => value !== undefined && value !== null)
  @Instant()
  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: `Null or ${INSTANT_RULE}; after startTime when both are given`,
  })
  endTime?: string | null;
}
