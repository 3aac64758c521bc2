// Operators: every account with its role and status, forms to change a role, disable and reset an
// enrolment (each asking for a fresh code when the session has not shown one lately), the create form, and
// the page that shows a setup token once.
import { OPERATOR_ROLES } from '../../auth/roles.js';
import type { OperatorView } from '../../operators/operator.view.js';
import type { CreatedOperatorView } from '../../operators/operators.service.js';
import { PostForm } from '../../web/components/forms.js';
import { Badge, Facts, hrefWith, Notice, Table, Time } from '../../web/components/ui.js';
import type { ConsoleContext } from '../../operators/console-context.js';
import { ConsolePage } from './console-page.js';
import { Done } from './done.js';
import { StepUpField } from './step-up.js';

const SECTION = '/console/operators';

const DONE: Readonly<Record<string, string>> = {
  role: 'The role is changed: it holds from the operator’s next request.',
  disabled: 'The operator is disabled: their sessions and tokens stopped working.',
};

function RoleSelect(props: { readonly id: string; readonly value?: string }) {
  return (
    <select id={props.id} name="role" required>
      {OPERATOR_ROLES.map((role) => (
        <option key={role} value={role} selected={props.value === role}>
          {role}
        </option>
      ))}
    </select>
  );
}

function OperatorActions(props: { readonly ctx: ConsoleContext; readonly operator: OperatorView }) {
  const { ctx, operator } = props;
  if (operator.status === 'DISABLED') return <span class="muted">none</span>;
  const base = `${SECTION}/${operator.id}`;
  const id = operator.id.slice(0, 8);
  return (
    <details>
      <summary>Change</summary>
      <PostForm action={`${base}/role`} csrf={ctx.csrf} class="stacked" label={`Role of ${operator.email}`}>
        <label for={`role-${id}`}>
          Role
          <RoleSelect id={`role-${id}`} value={operator.role} />
        </label>
        <StepUpField ctx={ctx} id={`role-code-${id}`} />
        <button type="submit">Change the role</button>
      </PostForm>
      <PostForm
        action={`${base}/disable`}
        csrf={ctx.csrf}
        class="stacked"
        label={`Disable ${operator.email}`}
        confirm={`Disable ${operator.email}? Their sessions and tokens stop working at once.`}
      >
        <StepUpField ctx={ctx} id={`disable-code-${id}`} />
        <button type="submit" class="button-danger">
          Disable
        </button>
      </PostForm>
      <PostForm
        action={`${base}/reset`}
        csrf={ctx.csrf}
        class="stacked"
        label={`Reset the enrolment of ${operator.email}`}
        confirm={`Reset ${operator.email}? Their password and authenticator are cleared.`}
      >
        <StepUpField ctx={ctx} id={`reset-code-${id}`} />
        <button type="submit" class="button-quiet">
          Reset password and authenticator
        </button>
      </PostForm>
    </details>
  );
}

export function OperatorsPage(props: {
  readonly ctx: ConsoleContext;
  readonly operators: readonly OperatorView[];
  readonly done: string | undefined;
}) {
  const { ctx } = props;
  return (
    <ConsolePage ctx={ctx} title="Operators" section={SECTION}>
      <Done done={props.done} messages={DONE} />
      <Table
        caption="Operators, by e-mail"
        head={['E-mail', 'Name', 'Role', 'Status', 'Created', 'Actions']}
        rows={props.operators.length}
      >
        {props.operators.map((operator) => (
          <tr key={operator.id}>
            <td>
              <a href={hrefWith('/console/audit', { operatorEmail: operator.email })}>{operator.email}</a>
            </td>
            <td>{operator.name}</td>
            <td>{operator.role}</td>
            <td>
              <Badge
                tone={
                  operator.status === 'ACTIVE' ? 'good' : operator.status === 'PENDING' ? 'warn' : 'neutral'
                }
              >
                {operator.status}
              </Badge>
            </td>
            <td>
              <Time iso={operator.createdAt} />
            </td>
            <td>
              <OperatorActions ctx={ctx} operator={operator} />
            </td>
          </tr>
        ))}
      </Table>
      <section aria-labelledby="new-operator-heading">
        <h2 id="new-operator-heading">New operator</h2>
        <p>They enrol with the setup token the next page shows (once), as docs/operators.md describes.</p>
        <PostForm action={SECTION} csrf={ctx.csrf} class="stacked" label="New operator">
          <label for="operator-email">
            E-mail
            <input id="operator-email" type="email" name="email" required autocomplete="off" />
          </label>
          <label for="operator-name">
            Name
            <input id="operator-name" name="name" required maxLength={200} autocomplete="off" />
          </label>
          <label for="operator-role">
            Role
            <RoleSelect id="operator-role" value="SUPPORT" />
          </label>
          <StepUpField ctx={ctx} id="operator-code" />
          <button type="submit">Create the operator</button>
        </PostForm>
      </section>
    </ConsolePage>
  );
}

export function SetupTokenPage(props: {
  readonly ctx: ConsoleContext;
  readonly operator: CreatedOperatorView;
  readonly what: 'created' | 'reset';
}) {
  const { operator } = props;
  return (
    <ConsolePage
      ctx={props.ctx}
      title={props.what === 'created' ? 'Operator created' : 'Enrolment reset'}
      section={SECTION}
    >
      <Notice kind="info">
        Give the setup token to {operator.email} by a safe channel now: it is shown only on this page, never
        again. They enrol with it (a password, then a code from their authenticator app) through{' '}
        <code>POST /api/v1/admin/enrolment</code>, or by signing in with single sign-on.
      </Notice>
      <Facts
        items={[
          ['E-mail', operator.email],
          ['Role', operator.role],
          [
            'Setup token',
            <code key="token" class="secret">
              {operator.setupToken}
            </code>,
          ],
          ['Valid until', <Time key="until" iso={operator.setupExpiresAt} />],
        ]}
      />
      <p>
        <a href={SECTION}>Back to the operators</a>
      </p>
    </ConsolePage>
  );
}
