import type { Dec } from '../../common/decimal.js';
import { IfPresent } from '../../common/validation.js';
import { EnabledAssets, LimitMap, Rate } from './policy-fields.js';

/** Body of PATCH /api/v1/admin/orgs/{orgId}/policy/: each field sent replaces that field whole. */
export class UpdatePolicyDto {
  @IfPresent()
  @EnabledAssets()
  enabledAssets?: string[];

  @IfPresent()
  @LimitMap()
  quoteLimit?: Record<string, Dec>;

  @IfPresent()
  @LimitMap()
  totalLimit?: Record<string, Dec>;

  @IfPresent()
  @LimitMap()
  totalExposure?: Record<string, Dec>;

  @IfPresent()
  @LimitMap()
  assetExposure?: Record<string, Dec>;

  @IfPresent()
  @Rate()
  commissionRate?: Dec;

  @IfPresent()
  @Rate()
  vatRate?: Dec;
}
