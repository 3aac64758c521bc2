import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

import { CreatedAt, UpdatedAt } from './columns.js';

export const ORG_PLANS = ['STANDARD', 'ENTERPRISE'] as const;
export type OrgPlan = (typeof ORG_PLANS)[number];

/**
 * LIVE or SANDBOX, fixed at creation: a sandbox organisation has the test clock, the magic values and
 * triggered events (docs/testing.md); a live one has none of them.
 */
export const ORG_ENVIRONMENTS = ['LIVE', 'SANDBOX'] as const;
export type OrgEnvironment = (typeof ORG_ENVIRONMENTS)[number];

/**
 * What an organisation's users may trade, its four limits and its fees (docs/decisions.md, "Organisations:
 * the policy"). Amounts and rates are decimal strings. The limits are maps, as Actions events report them
 * (`newValues`, asset code to number): `quoteLimit`, `totalLimit` and `totalExposure` are keyed by quote
 * currency (an order on BTC_EUR is held to the `EUR` entry), `assetExposure` by base asset. No entry means no
 * limit.
 */
export interface OrgPolicy {
  /** Base assets the organisation's users may trade. */
  enabledAssets: string[];
  /** The most one order may be worth, in its quote currency (fees excluded). */
  quoteLimit: Record<string, string>;
  /** The most one user may trade in a UTC day, in the quote currency, both sides, fees excluded. */
  totalLimit: Record<string, string>;
  /** The most a user's positions may be worth after a BUY, valued at current prices in the quote currency. */
  totalExposure: Record<string, string>;
  /** The most of a base asset one user may hold after a BUY. */
  assetExposure: Record<string, string>;
  /** Share of an order's gross quote amount charged as commission, e.g. "0.0015". */
  commissionRate: string;
  /** VAT charged on the commission, e.g. "0.21". */
  vatRate: string;
}

export const DEFAULT_POLICY: OrgPolicy = {
  enabledAssets: [],
  quoteLimit: {},
  totalLimit: {},
  totalExposure: {},
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

  /** Webhook hosts must be this domain or a subdomain of it (docs/api-guide.md#webhook-signatures). */
  @Column({ name: 'kyc_domain', type: 'text' })
  kycDomain!: string;

  @Column({ type: 'text' })
  plan!: OrgPlan;

  @Column({ name: 'support_emails', type: 'text', array: true, default: () => "'{}'" })
  supportEmails!: string[];

  @Column({ type: 'jsonb' })
  policy!: OrgPolicy;

  /** Never changed after creation: nothing may turn a live organisation's data into test data. */
  @Column({ type: 'text', default: 'LIVE', update: false })
  environment!: OrgEnvironment;

  @CreatedAt()
  createdAt!: Date;

  @UpdatedAt()
  updatedAt!: Date;
}
