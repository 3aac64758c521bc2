// The console's home: the work waiting (KYC cases and the oldest, failing webhook endpoints, halted pairs,
// each a count with a link to its section when the role opens it), charts of every organisation's
// deliveries and orders, who is signed in and the sections the role opens.
import type { ComponentChildren } from 'preact';

import type { Deliveries, KycQueueAges, OrdersPerDay } from '../../activity/activity.service.js';
import { grantsRole, type OperatorRole } from '../../auth/roles.js';
import { DeliveryCharts, KycQueueChart, OrderCharts } from '../../web/components/activity-charts.js';
import { Facts, Time } from '../../web/components/ui.js';
import type { ConsoleContext } from '../../operators/console-context.js';
import { CONSOLE_HOME, KYC_QUEUE, sectionsFor } from '../nav.js';
import { ConsolePage } from './console-page.js';
import { ageText } from './kyc-queue.js';

export interface WaitingWork {
  readonly kyc: KycQueueAges;
  readonly failingEndpoints: { readonly count: number; readonly more: boolean };
  /** Pairs halted now. */
  readonly haltedPairs: readonly string[];
  /** Halts that start later. */
  readonly haltsToCome: number;
}

/** One count of waiting work: the number, what it counts, a link when the role opens the section. */
function Tally(props: {
  readonly role: OperatorRole;
  readonly count: string;
  readonly what: string;
  readonly detail?: ComponentChildren;
  readonly link: { readonly href: string; readonly label: string; readonly role: OperatorRole };
}) {
  return (
    <li>
      <span class="tally-count">{props.count}</span> {props.what}
      {props.detail && <div class="muted">{props.detail}</div>}
      {grantsRole(props.role, props.link.role) && (
        <div>
          <a href={props.link.href}>{props.link.label}</a>
        </div>
      )}
    </li>
  );
}

export function HomePage(props: {
  readonly ctx: ConsoleContext;
  readonly waiting: WaitingWork;
  readonly deliveries: Deliveries;
  readonly orders: OrdersPerDay;
  readonly now: Date;
}) {
  const { operator, stepUpUntil } = props.ctx;
  const { kyc, failingEndpoints, haltedPairs, haltsToCome } = props.waiting;
  const role = operator.role;
  const sections = sectionsFor(role).filter((section) => section.href !== CONSOLE_HOME);
  return (
    <ConsolePage ctx={props.ctx} title="Operator console" section={CONSOLE_HOME}>
      <section aria-labelledby="waiting-heading">
        <h2 id="waiting-heading">Waiting work</h2>
        <ul class="tallies">
          <Tally
            role={role}
            count={String(kyc.total)}
            what={kyc.total === 1 ? 'KYC case waiting' : 'KYC cases waiting'}
            detail={
              kyc.oldestSince && (
                <>
                  the oldest for {ageText(kyc.oldestSince, props.now)}, since{' '}
                  <Time iso={kyc.oldestSince.toISOString()} />
                </>
              )
            }
            link={{ href: KYC_QUEUE, label: 'Review the queue', role: 'KYC_REVIEWER' }}
          />
          <Tally
            role={role}
            count={`${failingEndpoints.count}${failingEndpoints.more ? '+' : ''}`}
            what={
              failingEndpoints.count === 1 && !failingEndpoints.more
                ? 'webhook endpoint not healthy'
                : 'webhook endpoints not healthy'
            }
            detail="degraded, failing or with no endpoint, by the one health rule"
            link={{ href: '/console/webhooks', label: 'See the endpoints', role: 'SUPPORT' }}
          />
          <Tally
            role={role}
            count={String(haltedPairs.length)}
            what={haltedPairs.length === 1 ? 'pair halted' : 'pairs halted'}
            detail={
              haltedPairs.length > 0 || haltsToCome > 0
                ? [haltedPairs.join(', '), haltsToCome > 0 ? `${haltsToCome} more to come` : '']
                    .filter(Boolean)
                    .join('; ')
                : undefined
            }
            link={{ href: '/console/notices', label: 'See the notices and halts', role: 'SUPPORT' }}
          />
        </ul>
        <KycQueueChart queue={kyc} />
      </section>
      <section aria-labelledby="deliveries-heading">
        <h2 id="deliveries-heading">Webhook deliveries</h2>
        <DeliveryCharts deliveries={props.deliveries} who="every organisation" />
      </section>
      <section aria-labelledby="orders-heading">
        <h2 id="orders-heading">Orders</h2>
        <OrderCharts orders={props.orders} who="every organisation" />
      </section>
      <section aria-labelledby="you-heading">
        <h2 id="you-heading">You</h2>
        <Facts
          items={[
            ['Operator', operator.email],
            ['Role', operator.role],
            [
              'Sensitive actions',
              stepUpUntil ? (
                <>
                  no code needed until <Time iso={stepUpUntil.toISOString()} />
                </>
              ) : (
                'ask for a code from your authenticator app'
              ),
            ],
          ]}
        />
      </section>
      <section aria-labelledby="sections-heading">
        <h2 id="sections-heading">Sections</h2>
        {sections.length === 0 ? (
          <p class="empty">Your role opens no section yet.</p>
        ) : (
          <ul>
            {sections.map((section) => (
              <li key={section.href}>
                <a href={section.href}>{section.label}</a>: {section.description}
              </li>
            ))}
          </ul>
        )}
      </section>
    </ConsolePage>
  );
}
