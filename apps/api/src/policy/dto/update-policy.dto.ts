import { IfPresent } from '../../common/validation.js';
import { EnabledAssets, LimitMap, Rate } from './policy-fields.js';

/** Body of PATCH /api/v1/admin/orgs/{orgId}/policy/: each field sent replaces that field whole. */
export class UpdatePolicyDto {
  @IfPresent()
  @EnabledAssets()
  enabledAssets?: string[];

  @IfPresent()
  @LimitMap()
  quoteLimit?: Record<string, number>;

  @IfPresent()
  @LimitMap()
  totalLimit?: Record<string, number>;

  @IfPresent()
  @LimitMap()
  totalExposure?: Record<string, number>;

  @IfPresent()
  @LimitMap()
  assetExposure?: Record<string, number>;

  @IfPresent()
  @Rate()
  commissionRate?: number;

  @IfPresent()
  @Rate()
  vatRate?: number;
}
