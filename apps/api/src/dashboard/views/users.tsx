// The users page (search by the start of an orgUserId, filter by status and KYC) and one user's page: KYC
// state, history and documents, and positions.
import { USER_STATUSES } from '@svc/protocol';

import type { KycView } from '../../kyc/kyc.view.js';
import type { PositionsView } from '../../orders/orders.service.js';
import type { UserView } from '../../users/user.view.js';
import { KycHistory } from '../../web/components/kyc-history.js';
import { ListTable } from '../../web/components/list-table.js';
import { Amount, Badge, Facts, hrefWith, Table, Time, type Tone } from '../../web/components/ui.js';
import type { KycHistoryItem } from '../../kyc/kyc.repository.js';
import type { DashboardContext } from '../dashboard-context.js';
import type { DashboardUsersQuery } from '../dto/dashboard-users.query.js';
import { DashboardPage, PageLink } from './dashboard-page.js';

const STATUS_TONES: Readonly<Record<string, Tone>> = {
  ACTIVE: 'good',
  PENDING: 'warn',
  REJECTED: 'bad',
  SUSPENDED: 'bad',
};

export function UserStatus(props: { readonly status: string }) {
  return <Badge tone={STATUS_TONES[props.status] ?? 'neutral'}>{props.status}</Badge>;
}

export function UsersPage(props: {
  readonly ctx: DashboardContext;
  readonly query: DashboardUsersQuery;
  readonly users: readonly UserView[];
  readonly nextCursor: string | null;
}) {
  const { query } = props;
  const filters = {
    q: query.q,
    userStatus: query.userStatus,
    kyc: query.kyc === undefined ? undefined : String(query.kyc),
  };
  return (
    <DashboardPage ctx={props.ctx} title="Users" section="/dashboard/users">
      <form method="get" action="/dashboard/users" class="filters" role="search" aria-label="Find users">
        <label>
          orgUserId starts with
          <input type="search" name="q" value={query.q ?? ''} maxLength={128} />
        </label>
        <label>
          Status
          <select name="userStatus">
            <option value="">any</option>
            {USER_STATUSES.map((status) => (
              <option key={status} value={status} selected={query.userStatus === status}>
                {status}
              </option>
            ))}
          </select>
        </label>
        <label>
          KYC approved
          <select name="kyc">
            <option value="">either</option>
            <option value="true" selected={query.kyc === true}>
              yes
            </option>
            <option value="false" selected={query.kyc === false}>
              no
            </option>
          </select>
        </label>
        <button type="submit">Search</button>
      </form>
      <ListTable
        pages={{
          path: '/dashboard/users',
          params: filters,
          cursor: query.cursor,
          nextCursor: props.nextCursor,
        }}
        caption="Users, newest first"
        head={['orgUserId', 'Status', 'KYC', 'Terms', 'Created']}
        rows={props.users.length}
        empty="No user matches."
      >
        {props.users.map((user) => (
          <tr key={user.orgUserId}>
            <td>
              <a href={`/dashboard/users/${encodeURIComponent(user.orgUserId)}`}>{user.orgUserId}</a>
            </td>
            <td>
              <UserStatus status={user.userStatus} />
            </td>
            <td>{user.kycState}</td>
            <td>{user.tnc ? 'accepted' : 'not accepted'}</td>
            <td>
              <Time iso={user.createdAt} />
            </td>
          </tr>
        ))}
      </ListTable>
    </DashboardPage>
  );
}

export function UserPage(props: {
  readonly ctx: DashboardContext;
  readonly user: UserView;
  readonly kyc: KycView;
  readonly history: readonly KycHistoryItem[];
  readonly positions: PositionsView;
}) {
  const { user, kyc } = props;
  return (
    <DashboardPage ctx={props.ctx} title={`User ${user.orgUserId}`} section="/dashboard/users">
      <section aria-labelledby="user-heading">
        <h2 id="user-heading">User</h2>
        <Facts
          items={[
            ['orgUserId', user.orgUserId],
            ['Status', <UserStatus status={user.userStatus} />],
            ['Type', user.userType],
            ['Terms and conditions', user.tnc ? 'accepted' : 'not accepted'],
            ['Created', <Time iso={user.createdAt} />],
            [
              'Orders',
              <PageLink
                ctx={props.ctx}
                page="ORDERS"
                href={hrefWith('/dashboard/orders', { orgUserId: user.orgUserId })}
              >
                This user&apos;s orders
              </PageLink>,
            ],
          ]}
        />
      </section>
      <section aria-labelledby="kyc-heading">
        <h2 id="kyc-heading">KYC</h2>
        <Facts
          items={[
            ['State', kyc.kycState],
            ['Approved', kyc.kyc ? 'yes' : 'no'],
            ['Step expires', <Time iso={kyc.expiresAt} empty="nothing is waiting" />],
            [
              'Last decision',
              kyc.review
                ? `${kyc.review.eventType}${kyc.review.message ? `: ${kyc.review.message}` : ''}`
                : 'none yet',
            ],
          ]}
        />
        <h3>History</h3>
        <KycHistory history={props.history} />
        <h3>Documents</h3>
        <Table
          caption="Uploaded documents"
          head={['Category', 'Sub-category', 'File', 'Type', 'Size', 'Uploaded']}
          rows={kyc.documents.length}
          empty="No document uploaded."
        >
          {kyc.documents.map((document) => (
            <tr key={document.id}>
              <td>{document.docCategory}</td>
              <td>{document.docSubCategory}</td>
              <td class="wrap">{document.fileName}</td>
              <td>{document.contentType}</td>
              <td class="num">{`${Math.ceil(document.sizeBytes / 1024)} KB`}</td>
              <td>
                <Time iso={document.createdAt} />
              </td>
            </tr>
          ))}
        </Table>
      </section>
      <section aria-labelledby="positions-heading">
        <h2 id="positions-heading">Positions</h2>
        <Table
          caption="Non-zero positions by asset"
          head={['Asset', 'Quantity', 'Changed']}
          rows={props.positions.positions.length}
          empty="No position."
        >
          {props.positions.positions.map((position) => (
            <tr key={position.asset}>
              <td>{position.asset}</td>
              <td class="num">
                <Amount value={position.quantity} unit={position.asset} />
              </td>
              <td>
                <Time iso={position.updatedAt} />
              </td>
            </tr>
          ))}
        </Table>
      </section>
    </DashboardPage>
  );
}
