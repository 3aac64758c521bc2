import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

import { CreatedAt, UpdatedAt } from './columns.js';

export const ORG_PLANS = ['STANDARD', 'ENTERPRISE'] as const;
export type OrgPlan = (typeof ORG_PLANS)[number];

/** The four limits and the enabled assets of an organisation (DESIGN section 8). Amounts are decimal strings. */
export interface OrgPolicy {
  enabledAssets: string[];
  quoteLimit: string | null;
  totalLimit: string | null;
  totalExposure: string | null;
  assetExposure: Record<string, string>;
  commissionRate: string;
  vatRate: string;
}

export const DEFAULT_POLICY: OrgPolicy = {
  enabledAssets: [],
  quoteLimit: null,
  totalLimit: null,
  totalExposure: null,
  assetExposure: {},
  commissionRate: '0',
  vatRate: '0',
};

@Entity({ name: 'organisations' })
export class Organisation {
  /** The spec's numeric orgId. */
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'text' })
  name!: string;

  /** Webhook hosts must be this domain or a subdomain of it (spec 5.3). */
  @Column({ name: 'kyc_domain', type: 'text' })
  kycDomain!: string;

  @Column({ type: 'text' })
  plan!: OrgPlan;

  @Column({ name: 'support_emails', type: 'text', array: true, default: () => "'{}'" })
  supportEmails!: string[];

  @Column({ type: 'jsonb' })
  policy!: OrgPolicy;

  @CreatedAt()
  createdAt!: Date;

  @UpdatedAt()
  updatedAt!: Date;
}
