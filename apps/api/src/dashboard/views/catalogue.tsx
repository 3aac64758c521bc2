// The event catalogue: every kind of event with its JSON Schema and an example body as it would reach
// this organisation's webhook.
import type { CatalogueEntry } from '../../event-log/event-catalogue.js';
import { CodeBlock } from '../../web/components/ui.js';
import type { DashboardContext } from '../dashboard-context.js';
import { DashboardPage } from './dashboard-page.js';

const anchor = (key: string) => key.replace('/', '-');

export function CataloguePage(props: {
  readonly ctx: DashboardContext;
  readonly entries: readonly CatalogueEntry[];
}) {
  const orgId = props.ctx.session.orgId;
  return (
    <DashboardPage ctx={props.ctx} title="Event catalogue" section="/dashboard/catalogue">
      <p>
        Every event is a POST of <code>{'{"event": ..., "data": ...}'}</code> to the webhook, signed with its
        secret. KYC events are Users events with an <code>eventType</code>. Receivers should ignore fields
        they do not know.
      </p>
      <nav aria-label="Event kinds">
        <ul>
          {props.entries.map((entry) => (
            <li key={entry.key}>
              <a href={`#${anchor(entry.key)}`}>{entry.key}</a>
            </li>
          ))}
        </ul>
      </nav>
      {props.entries.map((entry) => (
        <section key={entry.key} id={anchor(entry.key)} aria-labelledby={`${anchor(entry.key)}-heading`}>
          <h2 id={`${anchor(entry.key)}-heading`}>
            {entry.entity}
            {entry.eventType ? ` · ${entry.eventType}` : ''}
          </h2>
          <p>{entry.description}</p>
          <h3>Example body</h3>
          <CodeBlock
            label={`Example body of ${entry.key}`}
            text={JSON.stringify(entry.example(orgId), null, 2)}
          />
          <details>
            <summary>JSON Schema</summary>
            <CodeBlock label={`JSON Schema of ${entry.key}`} text={JSON.stringify(entry.schema, null, 2)} />
          </details>
        </section>
      ))}
    </DashboardPage>
  );
}
