// The orders page (filters by user, pair, side and status) and one order's page.
import { ORDER_SIDES, ORDER_STATUSES, type Order } from '@svc/protocol';

import type { ListOrdersQuery } from '../../orders/dto/list-orders.query.js';
import { ListTable } from '../../web/components/list-table.js';
import { ExportForm } from '../../web/components/export-form.js';
import { Amount, Badge, Facts, Rate, Time, type Tone } from '../../web/components/ui.js';
import type { DashboardContext } from '../dashboard-context.js';
import { DashboardPage, PageLink } from './dashboard-page.js';

const TONES: Readonly<Record<string, Tone>> = {
  COMPLETED: 'good',
  PENDING: 'warn',
  REJECTED: 'bad',
  FAILED: 'bad',
};

export function OrderStatus(props: { readonly status: string }) {
  return <Badge tone={TONES[props.status] ?? 'neutral'}>{props.status}</Badge>;
}

/** The asset a pair trades (BTC of BTC_EUR): the unit of an order's quantity. */
export function baseAsset(symbol: string): string {
  return symbol.split('_')[0] ?? symbol;
}

export function OrdersPage(props: {
  readonly ctx: DashboardContext;
  readonly query: ListOrdersQuery;
  readonly orders: readonly Order[];
  readonly nextCursor: string | null;
}) {
  const { query } = props;
  const filters = {
    orgUserId: query.orgUserId,
    symbol: query.symbol,
    side: query.side,
    status: query.status,
    clientOrderId: query.clientOrderId,
  };
  return (
    <DashboardPage ctx={props.ctx} title="Orders" section="/dashboard/orders">
      <form method="get" action="/dashboard/orders" class="filters" aria-label="Filter orders">
        <label>
          orgUserId
          <input type="text" name="orgUserId" value={query.orgUserId ?? ''} maxLength={128} />
        </label>
        <label>
          Pair
          <input type="text" name="symbol" value={query.symbol ?? ''} placeholder="BTC_EUR" maxLength={41} />
        </label>
        <label>
          Side
          <select name="side">
            <option value="">any</option>
            {ORDER_SIDES.map((side) => (
              <option key={side} value={side} selected={query.side === side}>
                {side}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select name="status">
            <option value="">any</option>
            {ORDER_STATUSES.map((status) => (
              <option key={status} value={status} selected={query.status === status}>
                {status}
              </option>
            ))}
          </select>
        </label>
        <label>
          clientOrderId
          <input type="text" name="clientOrderId" value={query.clientOrderId ?? ''} maxLength={36} />
        </label>
        <button type="submit">Filter</button>
      </form>
      <ListTable
        pages={{
          path: '/dashboard/orders',
          params: filters,
          cursor: query.cursor,
          nextCursor: props.nextCursor,
        }}
        caption="Orders, newest first"
        head={['Order', 'User', 'Status', 'Quantity', 'Total', 'Created', 'Id']}
        numeric={['Quantity', 'Total', 'Id']}
        rows={props.orders.length}
        empty="No order matches."
      >
        {props.orders.map((order) => (
          <tr key={order.id}>
            <td>
              <a href={`/dashboard/orders/${order.id}`}>{`${order.side} ${order.symbol}`}</a>
            </td>
            <td>
              <PageLink
                ctx={props.ctx}
                page="USERS"
                href={`/dashboard/users/${encodeURIComponent(order.orgUserId)}`}
              >
                {order.orgUserId}
              </PageLink>
            </td>
            <td>
              <OrderStatus status={order.status} />
            </td>
            <td class="num">
              <Amount value={order.quantity} unit={baseAsset(order.symbol)} />
            </td>
            <td class="num">
              <Amount value={order.totalExecutedAmount} unit={order.commissionAsset} />
            </td>
            <td>
              <Time iso={order.createdAt} />
            </td>
            <td class="num">
              <a class="id" href={`/dashboard/orders/${order.id}`}>
                {order.id}
              </a>
            </td>
          </tr>
        ))}
      </ListTable>
      <ExportForm action="/dashboard/orders/export.csv" what="orders" />
    </DashboardPage>
  );
}

export function OrderPage(props: { readonly ctx: DashboardContext; readonly order: Order }) {
  const { order } = props;
  const quote = order.commissionAsset;
  const base = baseAsset(order.symbol);
  return (
    <DashboardPage ctx={props.ctx} title={`Order ${order.id}`} section="/dashboard/orders">
      <section aria-labelledby="order-heading">
        <h2 id="order-heading">What was asked</h2>
        <Facts
          items={[
            ['Status', <OrderStatus status={order.status} />],
            ['Why refused', order.rejectionReason ?? 'not refused'],
            [
              'User',
              <PageLink
                ctx={props.ctx}
                page="USERS"
                href={`/dashboard/users/${encodeURIComponent(order.orgUserId)}`}
              >
                {order.orgUserId}
              </PageLink>,
            ],
            ['clientOrderId', order.clientOrderId],
            ['Pair', order.symbol],
            ['Side and type', `${order.side} ${order.type}`],
            ['Quantity', <Amount value={order.quantity} unit={base} />],
            ['Quote quantity', <Amount value={order.quoteQuantity} unit={quote} />],
            ['Created', <Time iso={order.createdAt} />],
            ['Changed', <Time iso={order.updatedAt} />],
          ]}
        />
      </section>
      <section aria-labelledby="execution-heading">
        <h2 id="execution-heading">Execution</h2>
        <Facts
          items={[
            ['Filled', <Amount value={order.filled} unit={base} />],
            ['Price', <Amount value={order.price} unit={quote} />],
            ['Average price', <Amount value={order.averagePrice} unit={quote} />],
            ['Estimated price', <Amount value={order.estimatedPrice} unit={quote} />],
            [
              'Commission',
              <>
                <Amount value={order.commissionAmount} unit={quote} /> (rate{' '}
                <Rate value={order.commissionRate} />)
              </>,
            ],
            [
              'VAT',
              <>
                <Amount value={order.vatAmount} unit={quote} /> (rate <Rate value={order.vatRate} />)
              </>,
            ],
            ['Net amount', <Amount value={order.netExecutedAmount} unit={quote} />],
            ['Total amount', <Amount value={order.totalExecutedAmount} unit={quote} />],
          ]}
        />
      </section>
    </DashboardPage>
  );
}
