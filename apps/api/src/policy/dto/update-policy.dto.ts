import { ApiPropertyOptional } from '@nestjs/swagger';

import { ASSET_CODE } from '../../common/assets.js';
import { AMOUNT_OR_ZERO_RULE, type Dec } from '../../common/decimal.js';
import { IfPresent } from '../../common/validation.js';
import { EnabledAssets, LimitMap, MAX_POLICY_ENTRIES, Rate, RATE_RULE } from './policy-fields.js';

/** A limit map when sent: its rule and its OpenAPI schema. */
// Applied in the order stacked decorators would be: the bottom one first.
const LimitMapField = (): PropertyDecorator => (target, property) => {
  ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'number', minimum: 0 },
    maxProperties: MAX_POLICY_ENTRIES,
    ...({ propertyNames: { pattern: ASSET_CODE.source } } as object),
    description: `Asset code to ${AMOUNT_OR_ZERO_RULE}; 0 allows nothing, an absent code has no limit`,
  })(target, property);
  LimitMap()(target, property as string);
  IfPresent()(target, property);
};

/** A rate when sent: its rule and its OpenAPI schema. */
const RateField = (): PropertyDecorator => (target, property) => {
  ApiPropertyOptional({
    type: 'number',
    minimum: 0,
    maximum: 1,
    exclusiveMaximum: true,
    description: RATE_RULE,
  })(target, property);
  Rate()(target, property as string);
  IfPresent()(target, property);
};

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

  @LimitMapField()
  quoteLimit?: Record<string, Dec>;

  @LimitMapField()
  totalLimit?: Record<string, Dec>;

  @LimitMapField()
  totalExposure?: Record<string, Dec>;

  @LimitMapField()
  assetExposure?: Record<string, Dec>;

  @RateField()
  commissionRate?: Dec;

  @RateField()
  vatRate?: Dec;
}
