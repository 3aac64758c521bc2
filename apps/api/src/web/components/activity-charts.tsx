// The charts of activity that the dashboard's overview (one organisation's) and the console's home (every
// organisation's) share: webhook deliveries by outcome per hour and per day, their durations, orders and
// their volume per day, and the KYC queue by waiting time. Figures from activity/activity.service.ts.
import type { Deliveries, KycQueueAges, OrdersPerDay } from '../../activity/activity.service.js';
import { KYC_BRACKETS } from '../../activity/activity.service.js';
import { BarChart, LineChart } from './chart.js';

/** "14:00", the UTC hour. */
const hourLabel = (start: Date) => `${start.toISOString().slice(11, 13)}:00`;
/** "11-23", the UTC day (the year is the table's caption's business: the last 30 days). */
const dayLabel = (start: Date) => start.toISOString().slice(5, 10);

/** Attempts per hour and per day by outcome, and the hours' attempt durations. `who`: "the organisation", "every organisation". */
export function DeliveryCharts(props: { readonly deliveries: Deliveries; readonly who: string }) {
  const { hours, days } = props.deliveries;
  return (
    <div class="charts">
      <BarChart
        id="deliveries-hours"
        title="Webhook attempts per hour, last 24 hours"
        summary={`Delivered and failed webhook attempts of ${props.who} in each UTC hour of the last 24 hours; ${sum(hours.map((h) => h.delivered))} delivered, ${sum(hours.map((h) => h.failed))} failed.`}
        pointName="Hour (UTC)"
        points={hours.map((h) => hourLabel(h.start))}
        unit="attempts"
        whole
        series={[
          { label: 'Delivered', tone: 'good', values: hours.map((h) => h.delivered) },
          { label: 'Failed', tone: 'bad', values: hours.map((h) => h.failed) },
        ]}
      />
      <BarChart
        id="deliveries-days"
        title="Webhook attempts per day, last 7 days"
        summary={`Delivered and failed webhook attempts of ${props.who} on each UTC day of the last 7 days; ${sum(days.map((d) => d.delivered))} delivered, ${sum(days.map((d) => d.failed))} failed.`}
        pointName="Day (UTC)"
        points={days.map((d) => dayLabel(d.start))}
        unit="attempts"
        whole
        series={[
          { label: 'Delivered', tone: 'good', values: days.map((d) => d.delivered) },
          { label: 'Failed', tone: 'bad', values: days.map((d) => d.failed) },
        ]}
      />
      <LineChart
        id="deliveries-latency"
        title="Time to the receiver's answer per hour, last 24 hours"
        summary={`The median (p50) and 95th percentile (p95) of how long the webhook receivers of ${props.who} took to answer an attempt, in milliseconds, in each UTC hour of the last 24 hours; no point in an hour without attempts.`}
        pointName="Hour (UTC)"
        points={hours.map((h) => hourLabel(h.start))}
        unit="ms"
        whole
        series={[
          { label: 'p50', tone: 'accent', values: hours.map((h) => h.p50) },
          { label: 'p95', tone: 'warn', values: hours.map((h) => h.p95) },
        ]}
      />
    </div>
  );
}

/** Orders per day by how they ended, and each quote currency's completed volume per day (at most three). */
export function OrderCharts(props: { readonly orders: OrdersPerDay; readonly who: string }) {
  const { orders } = props;
  const points = orders.days.map(dayLabel);
  return (
    <div class="charts">
      <BarChart
        id="orders-days"
        title="Orders per day, last 30 days"
        summary={`Orders of ${props.who} placed on each UTC day of the last 30 days, by how they ended; ${sum(orders.completed)} completed, ${sum(orders.refused)} rejected or failed, ${sum(orders.other)} pending.`}
        pointName="Day (UTC)"
        points={points}
        unit="orders"
        whole
        series={[
          { label: 'Completed', tone: 'good', values: orders.completed },
          { label: 'Rejected or failed', tone: 'bad', values: orders.refused },
          { label: 'Pending', tone: 'warn', values: orders.other },
        ]}
      />
      {orders.volumes.slice(0, 3).map(({ quote, perDay }) => (
        <LineChart
          key={quote}
          id={`volume-${quote.toLowerCase()}`}
          title={`Volume in ${quote} per day, last 30 days`}
          summary={`The net executed amount of the completed orders of ${props.who} quoted in ${quote} on each UTC day of the last 30 days; the table has the exact sums.`}
          pointName="Day (UTC)"
          points={points}
          unit={quote}
          series={[{ label: 'Volume', tone: 'accent', values: perDay.map(Number), texts: perDay }]}
        />
      ))}
    </div>
  );
}

/** The KYC cases waiting for a decision by how long they have waited. */
export function KycQueueChart(props: { readonly queue: KycQueueAges }) {
  const { queue } = props;
  return (
    <BarChart
      id="kyc-queue-ages"
      title="KYC cases waiting, by time waited"
      summary={`${queue.total} KYC cases wait for a decision, counted by how long they have waited.`}
      pointName="Waited"
      points={KYC_BRACKETS.map((b) => b.label)}
      unit="cases"
      whole
      series={[{ label: 'Cases', tone: 'warn', values: queue.counts }]}
    />
  );
}

function sum(values: readonly number[]): number {
  return values.reduce((total, n) => total + n, 0);
}
