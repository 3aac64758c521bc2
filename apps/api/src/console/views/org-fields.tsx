// The fields an organisation is created and changed with (the admin api's CreateOrgDto and UpdateOrgDto):
// name, KYC domain, plan and support e-mails.
import { ORG_PLANS } from '@svc/db';

import { MAX_SUPPORT_EMAILS } from '../../orgs/dto/org-fields.js';

export interface OrgFieldValues {
  readonly name: string;
  readonly kycDomain: string;
  readonly plan: string;
  readonly supportEmails: readonly string[];
}

export function OrgFields(props: { readonly values?: OrgFieldValues; readonly prefix: string }) {
  const { values, prefix } = props;
  return (
    <>
      <label for={`${prefix}-name`}>
        Name
        <input
          id={`${prefix}-name`}
          name="name"
          required
          maxLength={200}
          value={values?.name ?? ''}
          autocomplete="off"
        />
      </label>
      <label for={`${prefix}-domain`}>
        KYC domain
        <span class="hint">A hostname such as example.com: webhook hosts must be it or a subdomain</span>
        <input
          id={`${prefix}-domain`}
          name="kycDomain"
          required
          maxLength={253}
          value={values?.kycDomain ?? ''}
          autocomplete="off"
        />
      </label>
      <label for={`${prefix}-plan`}>
        Plan
        <select id={`${prefix}-plan`} name="plan" required>
          {ORG_PLANS.map((plan) => (
            <option key={plan} value={plan} selected={values?.plan === plan}>
              {plan}
            </option>
          ))}
        </select>
      </label>
      <label for={`${prefix}-emails`}>
        Support e-mails
        <span class="hint">
          Where failed webhook deliveries are reported: one a line, at most {MAX_SUPPORT_EMAILS}
        </span>
        <textarea id={`${prefix}-emails`} name="supportEmails" rows={3}>
          {values?.supportEmails.join('\n') ?? ''}
        </textarea>
      </label>
    </>
  );
}
