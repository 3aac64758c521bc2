import type { Dec } from '../../common/decimal.js';
import { IfPresent } from '../../common/validation.js';
import { EnabledAssets, LimitMap, Rate } from './policy-fields.js';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { ASSET_CODE } from '../../common/assets.js';
import { AMOUNT_OR_ZERO_RULE } from '../../common/decimal.js';
import { MAX_POLICY_ENTRIES, RATE_RULE } from './policy-fields.js';

/** Body of PATCH /api/v1/admin/orgs/{orgId}/policy/: each field sent replaces that field whole. */
export class UpdatePolicyDto {
  @IfPresent()
  @EnabledAssets()
  @ApiPropertyOptional({
    type: [String],
    pattern: ASSET_CODE.source,
    maxItems: MAX_POLICY_ENTRIES,
    uniqueItems: true,
    description: 'Asset codes the organisation may trade',
  })
  enabledAssets?: string[];

  @IfPresent()
  @LimitMap()
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'number', minimum: 0 },
    maxProperties: MAX_POLICY_ENTRIES,
    ...({ propertyNames: { pattern: ASSET_CODE.source } } as object),
    description: `Asset code to ${AMOUNT_OR_ZERO_RULE}; 0 allows nothing, an absent code has no limit`,
  })
  quoteLimit?: Record<string, Dec>;

  @IfPresent()
  @LimitMap()
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'number', minimum: 0 },
    maxProperties: MAX_POLICY_ENTRIES,
    ...({ propertyNames: { pattern: ASSET_CODE.source } } as object),
    description: `Asset code to ${AMOUNT_OR_ZERO_RULE}; 0 allows nothing, an absent code has no limit`,
  })
  totalLimit?: Record<string, Dec>;

  @IfPresent()
  @LimitMap()
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'number', minimum: 0 },
    maxProperties: MAX_POLICY_ENTRIES,
    ...({ propertyNames: { pattern: ASSET_CODE.source } } as object),
    description: `Asset code to ${AMOUNT_OR_ZERO_RULE}; 0 allows nothing, an absent code has no limit`,
  })
  totalExposure?: Record<string, Dec>;

  @IfPresent()
  @LimitMap()
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'number', minimum: 0 },
    maxProperties: MAX_POLICY_ENTRIES,
    ...({ propertyNames: { pattern: ASSET_CODE.source } } as object),
    description: `Asset code to ${AMOUNT_OR_ZERO_RULE}; 0 allows nothing, an absent code has no limit`,
  })
  assetExposure?: Record<string, Dec>;

  @IfPresent()
  @Rate()
  @ApiPropertyOptional({
    type: 'number',
    minimum: 0,
    maximum: 1,
    exclusiveMaximum: true,
    description: RATE_RULE,
  })
  commissionRate?: Dec;

  @IfPresent()
  @Rate()
  @ApiPropertyOptional({
    type: 'number',
    minimum: 0,
    maximum: 1,
    exclusiveMaximum: true,
    description: RATE_RULE,
  })
  vatRate?: Dec;
}
