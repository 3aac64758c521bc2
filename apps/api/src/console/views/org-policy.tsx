// An organisation's policy: its current values, the form (TRADING_OPS) that says which Actions event a
// change of each field emits, and the preview of a change (what changes, which events with which values)
// whose confirm form sends the same fields again.
import type { AdminOrgView } from '../../orgs/org.view.js';
import type { PolicyChange } from '../../policy/policy.service.js';
import { PostForm } from '../../web/components/forms.js';
import { AmountMap, amountText, CodeBlock, Facts, Rate, Table } from '../../web/components/ui.js';
import type { ConsoleContext } from '../../operators/console-context.js';
import { ConsolePage } from './console-page.js';
import { mayAct } from './done.js';

type Policy = AdminOrgView['policy'];

/** The limit fields, their labels and the Actions event a change of each emits. */
const LIMITS = [
  ['quoteLimit', 'Quote limit (per order)', 'QUOTE_LIMIT'],
  ['totalLimit', 'Total limit', 'TOTAL_LIMIT'],
  ['totalExposure', 'Total exposure', 'TOTAL_EXPOSURE'],
  ['assetExposure', 'Asset exposure', 'ASSET_EXPOSURE'],
] as const;

export const POLICY_FORM_FIELDS = [
  'enabledAssets',
  ...LIMITS.map(([field]) => field),
  'commissionRate',
  'vatRate',
] as const;

const mapText = (map: Record<string, number>) =>
  Object.entries(map)
    .map(([code, amount]) => `${code} ${amountText(amount)}`)
    .join('\n');

function currentText(policy: Policy): Record<(typeof POLICY_FORM_FIELDS)[number], string> {
  return {
    enabledAssets: policy.enabledAssets.join(', '),
    quoteLimit: mapText(policy.quoteLimit),
    totalLimit: mapText(policy.totalLimit),
    totalExposure: mapText(policy.totalExposure),
    assetExposure: mapText(policy.assetExposure),
    commissionRate: amountText(policy.commissionRate),
    vatRate: amountText(policy.vatRate),
  };
}

export function PolicyForm(props: { readonly ctx: ConsoleContext; readonly org: AdminOrgView }) {
  const { ctx, org } = props;
  const text = currentText(org.policy);
  if (!mayAct(ctx.operator.role, 'TRADING_OPS')) {
    return (
      <section aria-labelledby="policy-heading">
        <h2 id="policy-heading">Policy</h2>
        <Facts
          items={[
            ['Enabled assets', text.enabledAssets || 'none'],
            ...LIMITS.map(
              ([field, label]) =>
                [label, text[field] ? <AmountMap amounts={org.policy[field]} /> : 'no limit'] as const,
            ),
            ['Commission rate', <Rate value={org.policy.commissionRate} />],
            ['VAT rate', <Rate value={org.policy.vatRate} />],
          ]}
        />
        <p class="muted">Changing the policy needs the TRADING_OPS role.</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="policy-heading">
      <h2 id="policy-heading">Policy and limits</h2>
      <p>
        Each changed limit sends the organisation one <strong>Actions</strong> event with its whole new map; a
        changed set of enabled assets sends an <strong>ASSET_ENABLE</strong> event (1 enabled, 0 removed).
        Rates send none. <em>Preview</em> shows the events before anything is saved.
      </p>
      <PostForm
        action={`/console/orgs/${org.orgId}/policy/preview`}
        csrf={ctx.csrf}
        class="stacked"
        label="Change the policy"
      >
        <label for="policy-assets">
          Enabled assets
          <span class="hint">Asset codes, comma-separated. A change sends ASSET_ENABLE.</span>
          <input id="policy-assets" name="enabledAssets" value={text.enabledAssets} autocomplete="off" />
        </label>
        {LIMITS.map(([field, label, event]) => (
          <label for={`policy-${field}`} key={field}>
            {label}
            <span class="hint">
              One &quot;CODE amount&quot; a line; 0 allows nothing, an absent code has no limit. A change
              sends {event}.
            </span>
            <textarea id={`policy-${field}`} name={field} rows={3}>
              {text[field]}
            </textarea>
          </label>
        ))}
        <label for="policy-commission">
          Commission rate
          <span class="hint">From 0 up to (not including) 1; no event</span>
          <input
            id="policy-commission"
            name="commissionRate"
            value={text.commissionRate}
            inputMode="decimal"
            autocomplete="off"
          />
        </label>
        <label for="policy-vat">
          VAT rate
          <span class="hint">From 0 up to (not including) 1; no event</span>
          <input id="policy-vat" name="vatRate" value={text.vatRate} inputMode="decimal" autocomplete="off" />
        </label>
        <button type="submit">Preview the change</button>
      </PostForm>
    </section>
  );
}

export function PolicyPreviewPage(props: {
  readonly ctx: ConsoleContext;
  readonly org: AdminOrgView;
  readonly change: PolicyChange;
  readonly sent: Readonly<Record<string, string>>;
}) {
  const { ctx, org, change } = props;
  const changed = Object.entries(change.changes);
  return (
    <ConsolePage ctx={ctx} title={`Policy of ${org.name}: preview`} section="/console/orgs">
      <p>Nothing is saved yet.</p>
      <h2>What changes</h2>
      <Table
        caption="Changed policy fields"
        head={['Field', 'Now', 'After']}
        rows={changed.length}
        empty="Nothing changes: saving would write only an audit entry."
      >
        {changed.map(([field, { from, to }]) => (
          <tr key={field}>
            <td>{field}</td>
            <td class="wrap">
              <code>{JSON.stringify(from)}</code>
            </td>
            <td class="wrap">
              <code>{JSON.stringify(to)}</code>
            </td>
          </tr>
        ))}
      </Table>
      <h2>Events the organisation will receive</h2>
      {change.actions.length === 0 ? (
        <p class="empty">No Actions event.</p>
      ) : (
        <ul>
          {change.actions.map((action) => (
            <li key={action.name}>
              <strong>Actions {action.name}</strong>
              <CodeBlock label={`${action.name} event data`} text={JSON.stringify(action)} />
            </li>
          ))}
        </ul>
      )}
      <PostForm
        action={`/console/orgs/${org.orgId}/policy`}
        csrf={ctx.csrf}
        class="actions"
        label="Confirm the change"
      >
        {Object.entries(props.sent).map(([field, value]) => (
          <input type="hidden" key={field} name={field} value={value} />
        ))}
        <button type="submit">Save the policy and send the events</button>
        <a href={`/console/orgs/${org.orgId}`}>Back, without saving</a>
      </PostForm>
    </ConsolePage>
  );
}
