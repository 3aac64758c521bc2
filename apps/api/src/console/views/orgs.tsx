// Organisations: the list with its search, the new-organisation form, and an organisation's page (its
// facts, its fields' form for ADMIN, its policy form for TRADING_OPS, its credentials).
import { ORG_ENVIRONMENTS } from '@svc/db';

import type { Page } from '../../common/pagination.js';
import type { ApiKeyView, OAuthClientView } from '../../credentials/credential.view.js';
import type { AdminOrgView } from '../../orgs/org.view.js';
import { PostForm } from '../../web/components/forms.js';
import { ListTable } from '../../web/components/list-table.js';
import { Facts, hrefWith, Time } from '../../web/components/ui.js';
import type { ConsoleContext } from '../../operators/console-context.js';
import type { ConsoleOrgsQuery } from '../dto/console-queries.js';
import { ConsolePage } from './console-page.js';
import { Done, mayAct } from './done.js';
import { OrgCredentials } from './org-credentials.js';
import { OrgFields } from './org-fields.js';
import { PolicyForm } from './org-policy.js';

const SECTION = '/console/orgs';

export function OrgsPage(props: {
  readonly ctx: ConsoleContext;
  readonly query: ConsoleOrgsQuery;
  readonly orgs: Page<AdminOrgView>;
}) {
  const { ctx, query, orgs } = props;
  return (
    <ConsolePage ctx={ctx} title="Organisations" section={SECTION}>
      {mayAct(ctx.operator.role, 'ADMIN') && (
        <p>
          <a class="button" href="/console/orgs/new">
            New organisation
          </a>
        </p>
      )}
      <form method="get" action={SECTION} class="filters" role="search" aria-label="Find organisations">
        <label>
          Id or part of the name
          <input type="search" name="q" value={query.q ?? ''} maxLength={200} />
        </label>
        <button type="submit">Search</button>
      </form>
      <ListTable
        pages={{ path: SECTION, params: { q: query.q }, cursor: query.cursor, nextCursor: orgs.nextCursor }}
        caption="Organisations, by id"
        head={['Id', 'Name', 'Plan', 'KYC domain', 'Created']}
        numeric={['Id']}
        rows={orgs.items.length}
        empty="No organisation matches."
      >
        {orgs.items.map((org) => (
          <tr key={org.orgId}>
            <td class="num">{org.orgId}</td>
            <td>
              <a href={`${SECTION}/${org.orgId}`}>{org.name}</a>
              {org.environment === 'SANDBOX' && <strong class="sandbox-marker"> SANDBOX</strong>}
            </td>
            <td>{org.plan}</td>
            <td>{org.kycDomain}</td>
            <td>
              <Time iso={org.createdAt} />
            </td>
          </tr>
        ))}
      </ListTable>
    </ConsolePage>
  );
}

export function NewOrgPage(props: { readonly ctx: ConsoleContext }) {
  return (
    <ConsolePage ctx={props.ctx} title="New organisation" section={SECTION}>
      <p>It starts with the default policy; its credentials are issued on its page afterwards.</p>
      <PostForm action={SECTION} csrf={props.ctx.csrf} class="stacked" label="New organisation">
        <OrgFields prefix="new-org" />
        <label for="new-org-environment">
          Environment
          <span class="hint">
            SANDBOX for testing an integration (test clock, magic values, triggered events); fixed at creation
          </span>
          <select id="new-org-environment" name="environment" required>
            {ORG_ENVIRONMENTS.map((environment) => (
              <option key={environment} value={environment}>
                {environment}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Create the organisation</button>
      </PostForm>
    </ConsolePage>
  );
}

const DONE: Readonly<Record<string, string>> = {
  created: 'The organisation is created.',
  updated: 'The organisation is saved.',
  policy: 'The policy is saved, and its Actions events are sent.',
  'api-key-revoked': 'The API key is revoked: requests signed with it now fail.',
  'oauth-client-revoked': 'The OAuth client and its tokens are revoked.',
};

export function OrgPage(props: {
  readonly ctx: ConsoleContext;
  readonly org: AdminOrgView;
  readonly apiKeys: readonly ApiKeyView[];
  readonly clients: readonly OAuthClientView[];
  readonly done: string | undefined;
}) {
  const { ctx, org } = props;
  const path = `${SECTION}/${org.orgId}`;
  return (
    <ConsolePage ctx={ctx} title={org.name} section={SECTION}>
      {org.environment === 'SANDBOX' && (
        <p class="sandbox-marker" role="note">
          <strong>SANDBOX</strong>: a test organisation (docs/testing.md)
        </p>
      )}
      <Done done={props.done} messages={DONE} />
      <Facts
        items={[
          ['Id', String(org.orgId)],
          ['Environment', org.environment],
          ['Plan', org.plan],
          ['KYC domain', org.kycDomain],
          ['Support e-mails', org.supportEmails.length > 0 ? org.supportEmails.join(', ') : 'none'],
          ['Created', <Time key="created" iso={org.createdAt} />],
          ['Audit', <a href={hrefWith('/console/audit', { orgId: String(org.orgId) })}>its audit entries</a>],
        ]}
      />
      {mayAct(ctx.operator.role, 'ADMIN') && (
        <section aria-labelledby="org-heading">
          <h2 id="org-heading">Name, plan and support e-mails</h2>
          <PostForm action={path} csrf={ctx.csrf} class="stacked" label="Change the organisation">
            <OrgFields prefix="org" values={org} />
            <button type="submit">Save</button>
          </PostForm>
        </section>
      )}
      <PolicyForm ctx={ctx} org={org} />
      <OrgCredentials ctx={ctx} orgId={org.orgId} apiKeys={props.apiKeys} clients={props.clients} />
    </ConsolePage>
  );
}
